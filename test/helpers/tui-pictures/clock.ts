/**
 * Pinned randomness and time for drawing pictures: `Math.random` is a seeded generator, `Date.now()` and
 * `new Date()` read a fixed clock, and timers never fire on their own: `tick()` runs every pending timer once and
 * moves the clock on. Both sides of the comparison (pi under Node, ours under Bun) install the same clock, so snake
 * food and animation frames match.
 * Runs under Node's type stripping too: erasable TypeScript only.
 */

export const START_TIME = Date.UTC(2025, 0, 15, 12, 0, 0);
const TICK_MS = 100;

interface FakeTimer {
	run: () => void;
	repeat: boolean;
}

export interface PinnedClock {
	/** Run every pending timer once (one-shot timers then go away) and advance the clock. */
	tick(): void;
	/** Put the real timers, clock and Math.random back. */
	restore(): void;
}

function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function installClock(seed = 42): PinnedClock {
	const g = globalThis as Record<string, unknown>;
	const saved = {
		setInterval: g.setInterval,
		clearInterval: g.clearInterval,
		setTimeout: g.setTimeout,
		clearTimeout: g.clearTimeout,
		random: Math.random,
		Date: g.Date,
	};
	const timers = new Map<number, FakeTimer>();
	let nextId = 1;
	let now = START_TIME;
	const handle = (id: number) => ({
		id,
		ref() {
			return this;
		},
		unref() {
			return this;
		},
		hasRef: () => false,
		refresh() {
			return this;
		},
		[Symbol.toPrimitive]: () => id,
	});
	const add =
		(repeat: boolean) =>
		(fn: (...args: unknown[]) => void, _ms?: number, ...args: unknown[]) => {
			const id = nextId++;
			timers.set(id, { run: () => fn(...args), repeat });
			return handle(id);
		};
	const clear = (h: unknown) => {
		if (h === undefined || h === null) return;
		timers.delete(typeof h === "object" ? (h as { id: number }).id : Number(h));
	};
	g.setInterval = add(true);
	g.setTimeout = add(false);
	g.clearInterval = clear;
	g.clearTimeout = clear;
	Math.random = seeded(seed);
	const RealDate = saved.Date as DateConstructor;
	// `new Date()` and `Date.now()` read the pinned clock; a Date of a given time is the real one.
	g.Date = new Proxy(RealDate, {
		construct: (target, args) => (args.length === 0 ? new target(now) : Reflect.construct(target, args)),
		apply: (target, _this, args) =>
			args.length === 0 ? new target(now).toString() : Reflect.apply(target, _this, args),
		get: (target, key, receiver) => (key === "now" ? () => now : Reflect.get(target, key, receiver)),
	});
	return {
		tick() {
			now += TICK_MS;
			for (const [id, timer] of [...timers]) {
				if (!timers.has(id)) continue;
				if (!timer.repeat) timers.delete(id);
				timer.run();
			}
		},
		restore() {
			Object.assign(g, {
				setInterval: saved.setInterval,
				clearInterval: saved.clearInterval,
				setTimeout: saved.setTimeout,
				clearTimeout: saved.clearTimeout,
			});
			Math.random = saved.random;
			g.Date = saved.Date;
		},
	};
}
