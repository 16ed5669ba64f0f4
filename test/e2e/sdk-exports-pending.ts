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
	"pi-tui:ProcessTerminal": "the renderer (issue 18 item 2)",
	"pi-tui:StdinBuffer": "keyboard input (issue 18 item 3)",
	"pi-tui:getOsc8LinkAtColumn": "width helpers (issue 18 item 4)",
	"pi-tui:Marked": "markdown (issue 18 item 5)",
	"pi-tui:renderLatex": "markdown (issue 18 item 5)",
	"pi-tui:CombinedAutocompleteProvider": "the editor and autocomplete (issue 18 item 5)",
	"pi-tui:Image": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:allocateImageId": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:calculateImageRows": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:deleteAllKittyImages": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:deleteKittyImage": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:detectCapabilities": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:encodeITerm2": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:encodeKitty": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getCapabilities": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getCellDimensions": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getGifDimensions": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getImageDimensions": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getJpegDimensions": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getPngDimensions": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getWebpDimensions": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:hyperlink": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:imageFallback": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:renderImage": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:resetCapabilitiesCache": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:setCapabilities": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:setCapabilityOverrides": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:setCellDimensions": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:parseOsc11BackgroundColor": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:parseTerminalColorSchemeReport": "terminal images, colours and clipboard (issue 18 item 1)",
	"pi-tui:getNativeClipboard": "terminal images, colours and clipboard (issue 18 item 1)",
};
