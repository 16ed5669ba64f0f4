/**
 * Id → value lookup tuned for session entry ids. Ids of exactly 8 lowercase hex chars (what pi and this layer
 * draw) live in an open-addressing table keyed by their 32-bit value; any other id goes to a plain Map. For 100k
 * entries this is several times faster than a string-keyed Map, which matters when opening large sessions.
 */

/** The 32-bit value of an 8-char lowercase hex id, or -1. */
function hexKey(id: string): number {
	if (id.length !== 8) return -1;
	let key = 0;
	for (let i = 0; i < 8; i++) {
		const c = id.charCodeAt(i);
		let digit: number;
		if (c >= 48 && c <= 57) digit = c - 48;
		else if (c >= 97 && c <= 102) digit = c - 87;
		else return -1;
		key = key * 16 + digit;
	}
	return key;
}

export class IdIndex<T> {
	/** Open addressing over hex keys: `slots[i]` is 0 when free, else 1 + the value's index in `values`. */
	private keys = new Uint32Array(1024);
	private slots = new Int32Array(1024);
	private mask = 1023;
	/** Values of hex keys, dense (a large holey array would fall back to a slow sparse representation). */
	private readonly values: T[] = [];
	private readonly other = new Map<string, T>();

	get size(): number {
		return this.values.length + this.other.size;
	}

	private slot(key: number): number {
		let i = Math.imul(key, 0x9e3779b1) >>> 0;
		i &= this.mask;
		for (;;) {
			if (this.slots[i] === 0 || this.keys[i] === key) return i;
			i = (i + 1) & this.mask;
		}
	}

	get(id: string): T | undefined {
		const key = hexKey(id);
		if (key < 0) return this.other.get(id);
		const at = this.slots[this.slot(key)]!;
		return at === 0 ? undefined : this.values[at - 1];
	}

	has(id: string): boolean {
		return this.get(id) !== undefined;
	}

	/** Stores `value` under `id` (replacing an existing value). `value` must not be undefined. */
	set(id: string, value: T): void {
		this.put(id, value, true);
	}

	/** Stores `value` unless `id` is taken; returns the value now stored under `id`. */
	add(id: string, value: T): T {
		return this.put(id, value, false);
	}

	private put(id: string, value: T, replace: boolean): T {
		const key = hexKey(id);
		if (key < 0) {
			const existing = this.other.get(id);
			if (existing !== undefined && !replace) return existing;
			this.other.set(id, value);
			return value;
		}
		if ((this.values.length + 1) * 2 > this.keys.length) this.grow();
		const i = this.slot(key);
		const at = this.slots[i]!;
		if (at !== 0) {
			if (!replace) return this.values[at - 1] as T;
			this.values[at - 1] = value;
			return value;
		}
		this.values.push(value);
		this.keys[i] = key;
		this.slots[i] = this.values.length;
		return value;
	}

	private grow(): void {
		const keys = this.keys;
		const slots = this.slots;
		this.keys = new Uint32Array(keys.length * 2);
		this.slots = new Int32Array(keys.length * 2);
		this.mask = keys.length * 2 - 1;
		for (let i = 0; i < keys.length; i++) {
			if (slots[i] === 0) continue;
			const j = this.slot(keys[i]!);
			this.keys[j] = keys[i]!;
			this.slots[j] = slots[i]!;
		}
	}
}
