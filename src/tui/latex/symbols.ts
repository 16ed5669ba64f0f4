/**
 * Facts for drawing LaTeX as text: which Unicode character each command stands for, which characters have
 * superscript/subscript forms, and which commands are operators, relations, spacing or mere wrappers. Tables are
 * written as "name value name value …" to keep them compact.
 */

function pairs(lines: string[]): Record<string, string> {
	const out: Record<string, string> = Object.create(null);
	const items = lines.join(" ").split(" ").filter(Boolean);
	for (let i = 0; i + 1 < items.length; i += 2) out[items[i] as string] = items[i + 1] as string;
	return out;
}

const names = (lines: string[]): ReadonlySet<string> => new Set(lines.join(" ").split(" ").filter(Boolean));

/** Command name → symbol. */
export const SYMBOLS = pairs([
	"alpha α beta β gamma γ delta δ epsilon ϵ varepsilon ε zeta ζ eta η theta θ vartheta ϑ iota ι kappa κ ",
	"varkappa ϰ lambda λ mu μ nu ν xi ξ pi π varpi ϖ rho ρ varrho ϱ sigma σ varsigma ς tau τ upsilon υ ",
	"phi ϕ varphi φ chi χ psi ψ omega ω Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ Upsilon Υ ",
	"Phi Φ Psi Ψ Omega Ω pm ± mp ∓ times × div ÷ cdot · ast ∗ star ⋆ circ ∘ bullet • oplus ⊕ ominus ⊖ ",
	"otimes ⊗ oslash ⊘ odot ⊙ bigcirc ○ dagger † ddagger ‡ amalg ⨿ uplus ⊎ sqcap ⊓ sqcup ⊔ bowtie ⋈ ",
	"Join ⋈ ltimes ⋉ rtimes ⋊ leftouterjoin ⟕ rightouterjoin ⟖ fullouterjoin ⟗ triangleleft ◁ ",
	"triangleright ▷ wr ≀ cap ∩ cup ∪ bigcap ⋂ bigcup ⋃ bigwedge ⋀ bigvee ⋁ bigsqcup ⨆ biguplus ⨄ ",
	"bigoplus ⨁ bigotimes ⨂ bigodot ⨀ setminus ∖ in ∈ notin ∉ ni ∋ subset ⊂ supset ⊃ subseteq ⊆ ",
	"supseteq ⊇ sqsubset ⊏ sqsupset ⊐ sqsubseteq ⊑ sqsupseteq ⊒ prec ≺ preceq ≼ succ ≻ succeq ≽ ll ≪ gg ≫ ",
	"le ≤ leq ≤ leqslant ≤ ge ≥ geq ≥ geqslant ≥ ne ≠ neq ≠ equiv ≡ approx ≈ sim ∼ simeq ≃ cong ≅ asymp ≍ ",
	"doteq ≐ propto ∝ parallel ∥ perp ⊥ mid ∣ vdash ⊢ dashv ⊣ models ⊨ Vdash ⊩ Vvdash ⊪ nvdash ⊬ nvDash ⊭ ",
	"forall ∀ exists ∃ nexists ∄ neg ¬ land ∧ wedge ∧ lor ∨ vee ∨ to → rightarrow → longrightarrow → ",
	"leftarrow ← longleftarrow ← gets ← leftrightarrow ↔ longleftrightarrow ↔ hookleftarrow ↩ ",
	"hookrightarrow ↪ twoheadleftarrow ↞ twoheadrightarrow ↠ leftharpoonup ↼ leftharpoondown ↽ ",
	"rightharpoonup ⇀ rightharpoondown ⇁ rightleftharpoons ⇌ leftrightharpoons ⇋ nearrow ↗ searrow ↘ ",
	"swarrow ↙ nwarrow ↖ rightsquigarrow ⇝ leadsto ⇝ Rightarrow ⇒ Longrightarrow ⇒ Leftarrow ⇐ ",
	"Longleftarrow ⇐ Leftrightarrow ⇔ Longleftrightarrow ⇔ implies ⇒ iff ⇔ mapsto ↦ longmapsto ↦ ",
	"uparrow ↑ downarrow ↓ partial ∂ nabla ∇ int ∫ iint ∬ iiint ∭ oint ∮ sum ∑ prod ∏ coprod ∐ infty ∞ ",
	"emptyset ∅ varnothing ∅ angle ∠ therefore ∴ because ∵ aleph ℵ beth ℶ gimel ℷ daleth ℸ top ⊤ bot ⊥ ",
	"triangle △ square □ lozenge ◊ checkmark ✓ complement ∁ wp ℘ prime ′ ldots … dots … cdots ⋯ vdots ⋮ ",
	"ddots ⋱ ell ℓ hbar ℏ Im ℑ Re ℜ langle ⟨ rangle ⟩ vert | lvert | rvert | Vert ‖ lVert ‖ rVert ‖ ",
	"lbrace { rbrace } backslash \\ lfloor ⌊ rfloor ⌋ lceil ⌈ rceil ⌉ colon :",
]);

/** Symbol → its negated form (`\not`). */
export const NEGATED = pairs([
	"< ≮ > ≯ = ≠ ∈ ∉ ∋ ∌ ∣ ∤ ∥ ∦ ∼ ≁ ≃ ≄ ≅ ≇ ≈ ≉ ≡ ≢ ≤ ≰ ≥ ≱ ≺ ⊀ ≻ ⊁ ⊂ ⊄ ⊃ ⊅ ⊆ ⊈ ⊇ ⊉ ⊢ ⊬ ⊨ ⊭ ↔ ↮ ← ↚ → ↛ ",
	"⇒ ⇏ ⇐ ⇍ ⇔ ⇎ ≼ ⋠ ≽ ⋡",
]);

export const BLACKBOARD = pairs(["C ℂ H ℍ N ℕ P ℙ Q ℚ R ℝ Z ℤ"]);

export const SUPERSCRIPTS = pairs([
	"0 ⁰ 1 ¹ 2 ² 3 ³ 4 ⁴ 5 ⁵ 6 ⁶ 7 ⁷ 8 ⁸ 9 ⁹ + ⁺ - ⁻ = ⁼ ( ⁽ ) ⁾ a ᵃ b ᵇ c ᶜ d ᵈ e ᵉ f ᶠ g ᵍ h ʰ i ⁱ j ʲ ",
	"k ᵏ l ˡ m ᵐ n ⁿ o ᵒ p ᵖ r ʳ s ˢ t ᵗ u ᵘ v ᵛ w ʷ x ˣ y ʸ z ᶻ",
]);

export const SUBSCRIPTS = pairs([
	"0 ₀ 1 ₁ 2 ₂ 3 ₃ 4 ₄ 5 ₅ 6 ₆ 7 ₇ 8 ₈ 9 ₉ + ₊ - ₋ = ₌ ( ₍ ) ₎ a ₐ e ₑ h ₕ i ᵢ j ⱼ k ₖ l ₗ m ₘ n ₙ o ₒ ",
	"p ₚ r ᵣ s ₛ t ₜ u ᵤ v ᵥ x ₓ",
]);

/** Upright function names (`\sin`, `\log`): spaced from neighbouring letters and digits. */
export const NAMED_OPERATORS = names([
	"arccos arcsin arctan arg cos cosh cot coth csc deg det dim exp gcd hom inf ker lg lim liminf limsup ",
	"ln log max min Pr sec sin sinh sup tan tanh",
]);

/** Operators whose limits go underneath in display math (`\lim_{x→0}`), else in brackets. */
export const LIMIT_OPERATORS = names(["argmax argmin inf injlim lim liminf limsup max min projlim sup"]);

/** Big operators (`\sum`, `\int`) whose limits stack above and below in display math. */
export const DISPLAY_LIMIT_SYMBOLS = names([
	"bigcap bigcup bigodot bigoplus bigotimes bigsqcup biguplus bigvee bigwedge coprod int iint iiint ",
	"oint prod sum",
]);

/** Relations and arrows, printed with a space on each side. */
export const RELATIONS = names([
	"Leftarrow Leftrightarrow Longleftarrow Longleftrightarrow Longrightarrow Rightarrow Join Vdash ",
	"Vvdash approx asymp bowtie cong dashv fullouterjoin doteq downarrow equiv ge geq geqslant gets gg ",
	"hookleftarrow hookrightarrow iff implies in leadsto le leftarrow leftharpoondown leftharpoonup ",
	"leftrightarrow leftrightharpoons leftouterjoin leq leqslant ll longleftarrow longleftrightarrow ",
	"longmapsto longrightarrow ltimes mapsto mid models ne nearrow neq ni notin nvdash nvDash nwarrow ",
	"parallel perp prec preceq propto rightharpoondown rightharpoonup rightleftharpoons rightouterjoin ",
	"rightarrow rightsquigarrow rtimes searrow sim simeq sqsubset sqsubseteq sqsupset sqsupseteq subset ",
	"subseteq succ succeq supset supseteq swarrow to triangleleft triangleright twoheadleftarrow ",
	"twoheadrightarrow uparrow vdash",
]);

/** `\,`, `\quad`… (and "\ "): one space. */
export const SPACING = new Set([
	",",
	":",
	";",
	" ",
	">",
	"enspace",
	"enskip",
	"medspace",
	"quad",
	"qquad",
	"thickspace",
	"thinspace",
]);

/** `\!` and friends remove the space before them. */
export const NEGATIVE_SPACING = new Set(["!", "negmedspace", "negthickspace", "negthinspace"]);

/** Old font switches (`\bf`): dropped with the spaces after them. */
export const FONT_SWITCHES = names(["bf cal it rm sf sl tt"]);

/** Commands with no visible effect here. */
export const IGNORED = names(["displaystyle limits nolimits scriptstyle scriptscriptstyle textstyle"]);

/** Delimiter sizes (`\big`, `\Bigl`): dropped. */
export const SIZES = names(["big Big bigg Bigg bigl Bigl biggl Biggl bigr Bigr biggr Biggr"]);

/** Commands whose argument is shown as it is (fonts, text, braces). */
export const PLAIN_WRAPPERS = names([
	"emph mathcal mathbf mathfrak mathit mathrm mathnormal mathscr mathsf mathtt mathup mbox overbrace ",
	"pmb smash substack text textbf textit textmd textnormal textrm textsc textsf textsl texttt textup ",
	"underbrace bm boldsymbol",
]);

/** Accent commands → the combining character put after a single-character argument. */
export const ACCENTS: Record<string, string> = {
	acute: "\u0301",
	bar: "\u0305",
	breve: "\u0306",
	check: "\u030c",
	ddot: "\u0308",
	dot: "\u0307",
	grave: "\u0300",
	hat: "\u0302",
	mathring: "\u030a",
	overleftarrow: "\u20d6",
	overleftrightarrow: "\u20e1",
	overline: "\u0305",
	overrightarrow: "\u20d7",
	tilde: "\u0303",
	underline: "\u0332",
	vec: "\u20d7",
	widehat: "\u0302",
	widetilde: "\u0303",
};
