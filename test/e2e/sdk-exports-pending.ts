/**
 * Names pi 0.87.1 exports that ours does not have yet, each with who brings it (`<package>:<name>` → owner or reason).
 * sdk-exports.test.ts fails on a missing name not listed here, and on a listed name that has arrived: when you add
 * one, delete its line.
 */
export const NOT_YET: Record<string, string> = {
	// @earendil-works/pi-coding-agent: 11
	"pi-coding-agent:AgentSessionRuntime": "pi's session-runtime form of createAgentSession (issue 16 item 8, left open)",
	"pi-coding-agent:DefaultPackageManager": "the package manager issue",
	"pi-coding-agent:ExtensionRunner":
		"pi's extension runner class; ours is the extension host (issue 16 item 8, left open)",
	"pi-coding-agent:convertToPng": "needs an image codec: a dependency decision (issue 16 item 8, left open)",
	"pi-coding-agent:createAgentSessionFromServices":
		"pi's session-runtime form of createAgentSession (issue 16 item 8, left open)",
	"pi-coding-agent:createAgentSessionRuntime":
		"pi's session-runtime form of createAgentSession (issue 16 item 8, left open)",
	"pi-coding-agent:main": "pi's CLI entry as a library call (issue 16 item 8, left open)",
	"pi-coding-agent:parseArgs": "pi's CLI entry as a library call (issue 16 item 8, left open)",
	"pi-coding-agent:renderDiff": "the interactive-mode issue (diff rendering of the edit tool)",
	"pi-coding-agent:resizeImage": "needs an image codec: a dependency decision (issue 16 item 8, left open)",
	"pi-coding-agent:runPrintMode": "pi's session-runtime form of createAgentSession (issue 16 item 8, left open)",
	// @earendil-works/pi-ai/compat: 15
	"pi-ai/compat:azureOpenAIResponsesApi":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:bedrockConverseStreamApi":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:googleVertexApi":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:mistralConversationsApi":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:openAICodexResponsesApi":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:piMessagesApi":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:setBedrockProviderModule":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamAzureOpenAIResponses":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamGoogleVertex":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamMistral":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamOpenAICodexResponses":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamSimpleAzureOpenAIResponses":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamSimpleGoogleVertex":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamSimpleMistral":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
	"pi-ai/compat:streamSimpleOpenAICodexResponses":
		"API not implemented yet (Azure OpenAI, Bedrock, Vertex, Mistral, Codex, pi-messages): a provider issue",
};
