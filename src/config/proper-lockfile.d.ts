// proper-lockfile ships no declarations; config's locked writes use the same ones as auth storage.
/// <reference path="../ai/auth/proper-lockfile.d.ts" />
