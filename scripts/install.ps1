# Installs the pi binary on Windows: irm <site>/install.ps1 | iex
#
# Environment: PI_VERSION (default: the latest release), PI_INSTALL_DIR (default: %LOCALAPPDATA%\pi\bin),
# PI_BASE_URL (a mirror laid out like a GitHub releases page), PI_NO_MODIFY_PATH=1 (print the PATH change instead
# of making it). The download is checked against the release's SHA256SUMS before anything is installed; the new
# pi.exe replaces the old one by rename, the old one kept as pi.exe.previous (the same steps as pi update on
# Windows, src/cli/update/replace-windows.ts). Everything is inside one function called on the last line.

function Install-Pi {
	$ErrorActionPreference = "Stop"
	$base = if ($env:PI_BASE_URL) { $env:PI_BASE_URL } else { "@PI_BASE_URL@" }
	if ($base.StartsWith("@")) { throw "pi install: no download site is configured: set PI_BASE_URL" }
	$base = $base.TrimEnd("/")
	$version = if ($env:PI_VERSION) { $env:PI_VERSION.TrimStart("v") } else { "latest" }
	if ($version -ne "latest" -and $version -notmatch '^\d+\.\d+\.\d+') {
		throw "pi install: PI_VERSION: not a version: $version (expected x.y.z or latest)"
	}
	$dir = if ($env:PI_INSTALL_DIR) { $env:PI_INSTALL_DIR } else { Join-Path $env:LOCALAPPDATA "pi\bin" }

	$arch = $env:PROCESSOR_ARCHITECTURE
	if ($arch -ne "AMD64" -and -not ($arch -eq "ARM64")) { throw "pi install: unsupported CPU architecture: $arch" }
	# Windows on ARM runs the x64 build under emulation.
	$asset = "pi-windows-x64.zip"
	$url = if ($version -eq "latest") { "$base/latest/download" } else { "$base/download/v$version" }

	$tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("pi-install-" + [guid]::NewGuid())
	New-Item -ItemType Directory -Path $tmp | Out-Null
	try {
		Write-Host "pi install: windows-x64, version $version, from $url"
		$sums = (Invoke-WebRequest -UseBasicParsing -Uri "$url/SHA256SUMS").Content
		if ($sums -is [byte[]]) { $sums = [System.Text.Encoding]::UTF8.GetString($sums) }
		if ($sums -match '<html') { throw "pi install: $url/SHA256SUMS is an HTML page, not a checksum list" }
		$line = ($sums -split "`n") | Where-Object { ($_ -split '\s+\*?')[1] -eq $asset } | Select-Object -First 1
		if (-not $line) { throw "pi install: SHA256SUMS lists no $asset" }
		$expected = ($line -split '\s+')[0].ToLower()
		$zip = Join-Path $tmp $asset
		Invoke-WebRequest -UseBasicParsing -Uri "$url/$asset" -OutFile $zip
		$actual = (Get-FileHash -Algorithm SHA256 -Path $zip).Hash.ToLower()
		if ($actual -ne $expected) {
			throw "pi install: checksum mismatch for $asset (expected $expected, got $actual): nothing was installed"
		}
		Expand-Archive -Path $zip -DestinationPath (Join-Path $tmp "unpacked")
		$new = Join-Path $tmp "unpacked\pi.exe"
		if (-not (Test-Path $new)) { throw "pi install: $asset holds no pi.exe" }

		# The new binary must run, even from a folder holding a hostile bunfig.toml and .env.
		$check = Join-Path $tmp "check"
		New-Item -ItemType Directory -Path $check | Out-Null
		Set-Content -Path (Join-Path $check "bunfig.toml") -Value 'preload = ["./hostile.ts"]'
		Set-Content -Path (Join-Path $check "hostile.ts") -Value 'console.log("hostile preload ran");'
		Set-Content -Path (Join-Path $check ".env") -Value "BUN_OPTIONS=--hostile"
		Push-Location $check
		try { $got = (& $new --version 2>&1 | Out-String).Trim() } finally { Pop-Location }
		if ($got -match "hostile") { throw "pi install: the downloaded pi ran code from the current folder: not installed" }
		if ($version -ne "latest" -and $got -ne $version) { throw "pi install: the downloaded pi says it is $got, not $version" }

		New-Item -ItemType Directory -Force -Path $dir | Out-Null
		$target = Join-Path $dir "pi.exe"
		if ((Test-Path $target) -and ((Get-FileHash $target).Hash -eq (Get-FileHash $new).Hash)) {
			Write-Host "pi $got is already installed at $target"
		} else {
			$staged = Join-Path $dir ".pi.install.exe"
			Copy-Item -Path $new -Destination $staged -Force
			# A running pi.exe cannot be overwritten or deleted, but it can be renamed: the old one becomes
			# pi.exe.previous (for pi update --rollback), as pi update does it. A previous one that still runs is
			# renamed aside to pi.exe.<id>.old; those are deleted here and by pi update once nothing runs them.
			Get-ChildItem -Path $dir -Filter "pi.exe.*.old" -ErrorAction SilentlyContinue |
				ForEach-Object { Remove-Item -Force -Path $_.FullName -ErrorAction SilentlyContinue }
			$previous = "$target.previous"
			if (Test-Path $target) {
				if (Test-Path $previous) {
					try { Remove-Item -Force -Path $previous }
					catch { Move-Item -Path $previous -Destination (Join-Path $dir ("pi.exe." + [guid]::NewGuid() + ".old")) }
				}
				Move-Item -Path $target -Destination $previous
			}
			try { Move-Item -Force -Path $staged -Destination $target }
			catch {
				if ((-not (Test-Path $target)) -and (Test-Path $previous)) { Move-Item -Path $previous -Destination $target }
				throw
			}
			Write-Host "pi $got installed at $target"
		}

		$userPath = [Environment]::GetEnvironmentVariable("Path", "User")
		if (-not (($userPath -split ";") -contains $dir)) {
			if ($env:PI_NO_MODIFY_PATH -eq "1") {
				Write-Host "$dir is not on your PATH; add it with:"
				Write-Host "  [Environment]::SetEnvironmentVariable('Path', `"$dir;`" + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
			} else {
				[Environment]::SetEnvironmentVariable("Path", "$dir;$userPath", "User")
				Write-Host "added $dir to your PATH; open a new terminal to use pi"
			}
		}
	} finally {
		Remove-Item -Recurse -Force -Path $tmp -ErrorAction SilentlyContinue
	}
}

Install-Pi
