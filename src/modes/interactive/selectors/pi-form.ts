/**
 * Selectors as pi-coding-agent exports them to extensions, with pi 0.87.1's constructors: the thinking-level
 * selector (our `/thinking` one, taking pi's positional arguments), the yes/no "show images" list and the
 * "Fork from Message" list.
 */
import type { ThinkingLevel } from "../../../agent/index.ts";
import { Container, type SelectItem, SelectList } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { listTheme, ThinkingSelector } from "./thinking-selector.ts";
import { type ForkCandidate, UserMessageSelector } from "./user-message-selector.ts";

/**
 * The thinking-level list: a search field, the levels (the current one ticked, the default one marked), the
 * save-as-default key when `onSelectAsDefault` is given.
 */
export class ThinkingSelectorComponent extends ThinkingSelector {
	constructor(
		currentLevel: ThinkingLevel,
		availableLevels: ThinkingLevel[],
		onSelect: (level: ThinkingLevel) => void,
		onCancel: () => void,
		onSelectAsDefault?: (level: ThinkingLevel) => void,
		defaultThinkingLevel?: ThinkingLevel,
	) {
		super({
			current: currentLevel,
			levels: availableLevels,
			onSelect,
			onCancel,
			...(onSelectAsDefault ? { onSelectAsDefault } : {}),
			...(defaultThinkingLevel ? { defaultLevel: defaultThinkingLevel } : {}),
		});
	}
}

const SHOW_IMAGES: SelectItem[] = [
	{ value: "yes", label: "Yes", description: "Show images inline in terminal" },
	{ value: "no", label: "No", description: "Show text placeholder instead" },
];

/** Yes/No between two rules, the current choice highlighted; `onSelect` gets true for Yes. */
export class ShowImagesSelectorComponent extends Container {
	private readonly selectList: SelectList;

	constructor(currentValue: boolean, onSelect: (show: boolean) => void, onCancel: () => void) {
		super();
		this.addChild(dialogBorder());
		this.selectList = new SelectList(SHOW_IMAGES, 5, listTheme(), {
			minPrimaryColumnWidth: 12,
			maxPrimaryColumnWidth: 32,
		});
		this.selectList.setSelectedIndex(currentValue ? 0 : 1);
		this.selectList.onSelect = (item) => onSelect(item.value === "yes");
		this.selectList.onCancel = () => onCancel();
		this.addChild(this.selectList);
		this.addChild(dialogBorder());
	}

	getSelectList(): SelectList {
		return this.selectList;
	}
}

/** `/fork`'s list of user messages; with none it cancels itself (after 100 ms, as pi's). */
export class UserMessageSelectorComponent extends UserMessageSelector {
	constructor(
		messages: ForkCandidate[],
		onSelect: (entryId: string) => void,
		onCancel: () => void,
		initialSelectedId?: string,
	) {
		super(messages, onSelect, onCancel, initialSelectedId);
		if (messages.length === 0) setTimeout(() => onCancel(), 100);
	}
}
