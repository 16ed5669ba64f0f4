/**
 * Names pi 0.87.1 exports that ours does not have yet, each with who brings it (`<package>:<name>` → owner or reason).
 * sdk-exports.test.ts fails on a missing name not listed here, and on a listed name that has arrived: when you add
 * one, delete its line.
 */
export const NOT_YET: Record<string, string> = {
	// @earendil-works/pi-coding-agent: 1
	"pi-coding-agent:DefaultPackageManager": "waits on the package manager issue",
	// @earendil-works/pi-ai/compat: 15 (waits on the providers issue)
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
