#!/bin/sh
# Installs the pi binary: curl -fsSL <site>/install.sh | sh
#
#   sh install.sh [--version <x.y.z>] [--no-modify-path] [--base-url <url>]
#
# Environment: PI_VERSION (default: the latest release), PI_INSTALL_DIR (default: ~/.local/bin), PI_BASE_URL (a
# mirror laid out like a GitHub releases page: <base>/latest/download/<asset>, <base>/download/v<x.y.z>/<asset>).
# The download is checked against the release's SHA256SUMS before anything is installed; the binary is put in
# place by rename, so a pi that is running keeps working. The whole script is one function called on the last line:
# a download cut short runs nothing.

pi_install() {
	set -eu
	default_base="@PI_BASE_URL@"
	version="${PI_VERSION:-latest}"
	base="${PI_BASE_URL:-$default_base}"
	dir="${PI_INSTALL_DIR:-$HOME/.local/bin}"
	modify_path=1
	cpuinfo="${PI_INSTALL_CPUINFO:-/proc/cpuinfo}"

	say() { printf '%s\n' "$*"; }
	tmp=""
	fail() {
		[ -z "$tmp" ] || rm -rf "$tmp"
		printf 'pi install: %s\n' "$*" >&2
		exit 1
	}

	while [ $# -gt 0 ]; do
		case "$1" in
		--version)
			[ $# -ge 2 ] || fail "--version needs a value (for example --version 1.2.3)"
			version="$2"
			shift 2
			;;
		--version=*)
			version="${1#--version=}"
			shift
			;;
		--base-url)
			[ $# -ge 2 ] || fail "--base-url needs a value"
			base="$2"
			shift 2
			;;
		--no-modify-path)
			modify_path=0
			shift
			;;
		-h | --help)
			say "usage: install.sh [--version <x.y.z>] [--no-modify-path] [--base-url <url>]"
			exit 0
			;;
		*) fail "unknown option: $1 (see --help)" ;;
		esac
	done
	version="${version#v}"
	case "$version" in
	latest | [0-9]*.[0-9]*.[0-9]*) ;;
	*) fail "--version: not a version: $version (expected x.y.z or latest)" ;;
	esac
	case "$base" in
	@*) fail "no download site is configured: pass --base-url <url> or set PI_BASE_URL" ;;
	esac
	base="${base%/}"

	# Platform: OS, CPU (Rosetta counts as arm64), musl libc, x64 without AVX2.
	os="$(uname -s)"
	case "$os" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	MINGW* | MSYS* | CYGWIN* | Windows_NT) fail "on Windows, run install.ps1 in PowerShell instead" ;;
	*) fail "unsupported operating system: $os (pi is built for Linux, macOS and Windows)" ;;
	esac
	arch="$(uname -m)"
	case "$arch" in
	x86_64 | amd64) arch=x64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) fail "unsupported CPU architecture: $arch (pi is built for x64 and arm64)" ;;
	esac
	if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
		arch=arm64 # a shell under Rosetta on Apple silicon
	fi
	target="$os-$arch"
	if [ "$os" = linux ]; then
		if ldd --version 2>&1 | grep -qi musl || ls /lib/ld-musl-* >/dev/null 2>&1; then
			target="$target-musl"
		elif [ "$arch" = x64 ] && [ -r "$cpuinfo" ] && ! grep -q avx2 "$cpuinfo"; then
			target="$target-baseline"
		fi
	fi
	asset="pi-$target.tar.gz"
	if [ "$version" = latest ]; then
		url="$base/latest/download"
	else
		url="$base/download/v$version"
	fi

	tmp="$(mktemp -d 2>/dev/null || mktemp -d -t pi-install)"
	# Not an EXIT trap: some shells run it when a command substitution's subshell ends.
	trap 'rm -rf "$tmp"; exit 130' INT TERM

	fetch() {
		if command -v curl >/dev/null 2>&1; then
			curl -fsSL --retry 2 -o "$2" "$1" || fail "download failed: $1"
		elif command -v wget >/dev/null 2>&1; then
			wget -q -O "$2" "$1" || fail "download failed: $1"
		else
			fail "neither curl nor wget is installed"
		fi
	}
	sha256() {
		if command -v sha256sum >/dev/null 2>&1; then
			sha256sum "$1" | cut -d' ' -f1
		elif command -v shasum >/dev/null 2>&1; then
			shasum -a 256 "$1" | cut -d' ' -f1
		elif command -v openssl >/dev/null 2>&1; then
			openssl dgst -sha256 "$1" | sed 's/.*= *//'
		else
			fail "no sha256 tool (sha256sum, shasum or openssl) to verify the download"
		fi
	}

	say "pi install: $target, version $version, from $url"
	fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS"
	if grep -qi '<html' "$tmp/SHA256SUMS"; then
		fail "$url/SHA256SUMS is an HTML page, not a checksum list (is the base URL right, and does version $version exist?)"
	fi
	expected="$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1; exit }' "$tmp/SHA256SUMS")"
	[ -n "$expected" ] || fail "SHA256SUMS lists no $asset: this release has no build for $target"
	fetch "$url/$asset" "$tmp/$asset"
	actual="$(sha256 "$tmp/$asset")"
	[ "$actual" = "$expected" ] || fail "checksum mismatch for $asset (expected $expected, got $actual): nothing was installed"
	mkdir -p "$tmp/unpacked"
	tar -xzf "$tmp/$asset" -C "$tmp/unpacked" || fail "$asset could not be unpacked"
	[ -f "$tmp/unpacked/pi" ] || fail "$asset holds no pi binary"
	chmod 755 "$tmp/unpacked/pi"

	# The new binary must run, even from a folder holding a hostile bunfig.toml and .env (pi reads neither).
	mkdir -p "$tmp/check"
	printf 'preload = ["./hostile.ts"]\n' >"$tmp/check/bunfig.toml"
	printf 'console.log("hostile preload ran");\n' >"$tmp/check/hostile.ts"
	printf 'BUN_OPTIONS=--hostile\nNODE_OPTIONS=--hostile\n' >"$tmp/check/.env"
	got="$(cd "$tmp/check" && "$tmp/unpacked/pi" --version 2>&1)" || fail "the downloaded pi does not run here: $got"
	case "$got" in
	*hostile*) fail "the downloaded pi ran code from the current folder's bunfig.toml: not installed" ;;
	esac
	[ "$version" = latest ] || [ "$got" = "$version" ] || fail "the downloaded pi says it is $got, not $version"

	if [ -f "$dir/pi" ] && [ "$(sha256 "$dir/pi")" = "$(sha256 "$tmp/unpacked/pi")" ]; then
		say "pi $got is already installed at $dir/pi"
	else
		mkdir -p "$dir" || fail "cannot create $dir (set PI_INSTALL_DIR to a folder you can write)"
		[ -w "$dir" ] || fail "cannot write to $dir (set PI_INSTALL_DIR to a folder you can write)"
		staged="$dir/.pi.install.$$"
		cp "$tmp/unpacked/pi" "$staged" || {
			rm -f "$staged"
			fail "could not write $staged (disk full?): the installed pi is unchanged"
		}
		chmod 755 "$staged"
		mv -f "$staged" "$dir/pi" || {
			rm -f "$staged"
			fail "could not move the new pi into $dir"
		}
		say "pi $got installed at $dir/pi"
	fi

	rm -rf "$tmp"
	case ":${PATH:-}:" in
	*":$dir:"*) return 0 ;;
	esac
	shell_name="$(basename "${SHELL:-sh}")"
	case "$shell_name" in
	fish)
		line="fish_add_path \"$dir\""
		rc="$HOME/.config/fish/config.fish"
		;;
	zsh)
		line="export PATH=\"$dir:\$PATH\""
		rc="${ZDOTDIR:-$HOME}/.zshrc"
		;;
	bash)
		line="export PATH=\"$dir:\$PATH\""
		rc="$HOME/.bashrc"
		;;
	*)
		line="export PATH=\"$dir:\$PATH\""
		rc="$HOME/.profile"
		;;
	esac
	if [ "$modify_path" = 1 ]; then
		if [ -f "$rc" ] && grep -qF "$line" "$rc"; then
			say "$dir is added to PATH in $rc; open a new terminal to use pi"
		else
			mkdir -p "$(dirname "$rc")"
			printf '\n# pi\n%s\n' "$line" >>"$rc"
			say "added $dir to PATH in $rc; open a new terminal to use pi"
		fi
	else
		say "$dir is not on your PATH; add it with this line in $rc:"
		say "  $line"
	fi
}

pi_install "$@"
