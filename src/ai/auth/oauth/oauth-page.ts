/**
 * The page the browser shows after it is sent back to our loopback callback: our own small HTML document, one for
 * a finished sign-in and one for a failed one. Every dynamic text is escaped.
 */

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(kind: "ok" | "error", heading: string, body: string, detail?: string): string {
	const accent = kind === "ok" ? "#3fb950" : "#f85149";
	const mark = kind === "ok" ? "&#10003;" : "&#10007;";
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pi · ${escapeHtml(heading)}</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0d1117;color:#e6edf3;font:16px/1.5 system-ui,sans-serif}
.card{max-width:30rem;padding:2rem 2.5rem;border:1px solid #30363d;border-radius:12px;background:#161b22;text-align:center}
.mark{font-size:2.5rem;color:${accent}}
h1{font-size:1.3rem;margin:.5rem 0}
p{color:#9198a1;margin:.5rem 0}
code{display:block;margin-top:1rem;padding:.5rem;border-radius:6px;background:#0d1117;color:#e6edf3;font:13px ui-monospace,monospace;white-space:pre-wrap;word-break:break-word}
</style>
</head>
<body>
<div class="card">
<div class="mark">${mark}</div>
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(body)}</p>
${detail ? `<code>${escapeHtml(detail)}</code>` : ""}
</div>
</body>
</html>
`;
}

/** Shown when the authorization code arrived: the terminal takes over from here. */
export function signedInPage(providerName: string): string {
	return page(
		"ok",
		`Signed in to ${providerName}`,
		"pi has what it needs. Close this tab and go back to your terminal.",
	);
}

/** Shown when the callback cannot complete the sign-in. */
export function signInFailedPage(reason: string, detail?: string): string {
	return page("error", "Sign-in did not complete", reason, detail);
}
