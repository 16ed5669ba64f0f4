/** A `.wasm` file imported `with { type: "file" }`: its path (inside the compiled binary, or on disk from source). */
declare module "*.wasm" {
	const path: string;
	export default path;
}
