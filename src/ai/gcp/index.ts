/** Google Cloud credentials without a vendor SDK: Application Default Credentials files and access tokens. */
export { clearAccessTokenCache, googleAccessToken, REFRESH_MARGIN_MS } from "./access-token.ts";
export {
	type AuthorizedUserCredentials,
	adcFilePath,
	GOOGLE_TOKEN_URL,
	type GoogleCredentials,
	GoogleCredentialsError,
	hasAdcFile,
	loadAdcCredentials,
	locationFromEnv,
	parseAdcCredentials,
	projectFromCredentials,
	projectFromEnv,
	type ServiceAccountCredentials,
	wellKnownAdcPath,
} from "./adc-file.ts";
export { hasVertexAmbientAuth } from "./ambient.ts";
export { CLOUD_PLATFORM_SCOPE } from "./jwt.ts";
