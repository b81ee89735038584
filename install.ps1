# Installs poly on Windows: downloads the release archive, refuses it unless its
# SHA-256 matches the release's sha256sums.txt, and puts poly.exe in place
# atomically (written beside the target, then renamed over it).
#
#   irm https://github.com/Goldziher/poly/releases/latest/download/install.ps1 | iex
#   $env:POLY_VERSION = '0.1.0'; irm .../install.ps1 | iex
#
# Environment:
#   POLY_VERSION        version to install ("0.1.0" or "v0.1.0"); default: the latest release
#   POLY_INSTALL_DIR    directory for poly.exe; default: %LOCALAPPDATA%\poly\bin
#   POLY_DOWNLOAD_BASE  where releases are downloaded from (a mirror, or a test server);
#                       default: https://github.com/Goldziher/poly/releases/download
#
# A version's files are at <base>/v<version>/: poly-<target>.zip and
# sha256sums.txt. The latest version is the tag of GitHub's latest release, or
# with POLY_DOWNLOAD_BASE set, the first line of <base>/latest.txt.
#
# Whatever fails, the previously installed poly.exe is left untouched and no
# partial file remains. See docs/install.md.

$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 3.0
$ProgressPreference = 'SilentlyContinue' # Invoke-WebRequest is slow with a progress bar

$Repo = 'Goldziher/poly'
$DefaultBase = "https://github.com/$Repo/releases/download"

function Fail([string] $Message) {
  throw "install.ps1: error: $Message"
}

function Get-File([string] $Url, [string] $Path) {
  try {
    Invoke-WebRequest -Uri $Url -OutFile $Path -UseBasicParsing
  } catch {
    Fail "cannot download ${Url}: $($_.Exception.Message)"
  }
}

# Runs `<exe> --version`; returns its output and exit code. (Windows PowerShell
# turns a native program's stderr into errors, which 'Stop' would throw.)
function Invoke-Version([string] $Exe) {
  $previous = $ErrorActionPreference
  $ErrorActionPreference = 'Continue'
  try {
    $output = (& $Exe --version 2>&1 | Out-String).Trim()
    $code = $LASTEXITCODE
  } catch {
    $output = $_.Exception.Message
    $code = 1
  } finally {
    $ErrorActionPreference = $previous
  }
  return [pscustomobject]@{ Output = $output; Code = $code }
}

function Get-Target {
  $arch = $null
  try {
    $arch = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
  } catch {
    $arch = $env:PROCESSOR_ARCHITECTURE
  }
  switch -Regex ($arch) {
    '^(X64|AMD64)$' { return 'x86_64-pc-windows-msvc' }
    # Windows on Arm runs x64 programs under emulation.
    '^(Arm64|ARM64)$' { return 'x86_64-pc-windows-msvc' }
    default { Fail "no poly build for the $arch architecture" }
  }
}

function Install-Poly {
  $base = if ($env:POLY_DOWNLOAD_BASE) { $env:POLY_DOWNLOAD_BASE.TrimEnd('/') } else { $DefaultBase }
  $target = Get-Target
  $archive = "poly-$target.zip"

  $tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("poly-install-" + [System.Guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $tmp | Out-Null
  $staged = $null
  try {
    $version = $env:POLY_VERSION
    if (-not $version -or $version -eq 'latest') {
      if ($env:POLY_DOWNLOAD_BASE) {
        $latestFile = Join-Path $tmp 'latest.txt'
        Get-File "$base/latest.txt" $latestFile
        $version = ([string](Get-Content -LiteralPath $latestFile -TotalCount 1)).Trim()
      } else {
        try {
          $release = Invoke-RestMethod -Uri "https://api.github.com/repos/$Repo/releases/latest" -UseBasicParsing
          $version = $release.tag_name
        } catch {
          Fail "cannot find the latest release of ${Repo}: $($_.Exception.Message)"
        }
      }
      if (-not $version) { Fail 'cannot find the latest version' }
    }
    $version = ([string]$version).Trim()
    if ($version.StartsWith('v')) { $version = $version.Substring(1) }
    if ($version -notmatch '^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$') {
      Fail "'$version' is not a version (expected e.g. 0.1.0)"
    }
    $url = "$base/v$version"
    Write-Host "install.ps1: installing poly $version for $target from $url/"

    $archivePath = Join-Path $tmp $archive
    $sumsPath = Join-Path $tmp 'sha256sums.txt'
    Get-File "$url/$archive" $archivePath
    try {
      Invoke-WebRequest -Uri "$url/sha256sums.txt" -OutFile $sumsPath -UseBasicParsing
    } catch {
      Fail "cannot download $url/sha256sums.txt: refusing to install an archive that cannot be verified"
    }

    $expected = @(
      Get-Content -LiteralPath $sumsPath | ForEach-Object {
        $fields = $_.Trim() -split '\s+'
        if ($fields.Count -ge 2 -and $fields[1].TrimStart('*') -eq $archive) { $fields[0].ToLowerInvariant() }
      } | Sort-Object -Unique
    )
    if ($expected.Count -eq 0) { Fail "sha256sums.txt has no line for ${archive}: refusing to install it" }
    if ($expected.Count -gt 1) { Fail "sha256sums.txt has conflicting lines for ${archive}: refusing to install it" }
    if ($expected[0] -notmatch '^[0-9a-f]{64}$') { Fail "sha256sums.txt has a malformed checksum for ${archive}: refusing to install it" }
    $actual = (Get-FileHash -LiteralPath $archivePath -Algorithm SHA256).Hash.ToLowerInvariant()
    if ($actual -ne $expected[0]) {
      Fail "checksum mismatch for $archive (expected $($expected[0]), got $actual): refusing to install it"
    }

    $extracted = Join-Path $tmp 'x'
    try {
      Expand-Archive -LiteralPath $archivePath -DestinationPath $extracted
    } catch {
      Fail "cannot extract ${archive}: $($_.Exception.Message)"
    }
    $program = Join-Path $extracted 'poly.exe'
    if (-not (Test-Path -LiteralPath $program -PathType Leaf)) { Fail "$archive does not contain poly.exe" }

    $dir = $env:POLY_INSTALL_DIR
    if (-not $dir) {
      if (-not $env:LOCALAPPDATA) { Fail 'LOCALAPPDATA is not set: set POLY_INSTALL_DIR' }
      $dir = Join-Path $env:LOCALAPPDATA 'poly\bin'
    }
    New-Item -ItemType Directory -Force -Path $dir | Out-Null
    $dest = Join-Path $dir 'poly.exe'
    if (Test-Path -LiteralPath $dest -PathType Container) { Fail "$dest is a directory" }

    # Stage beside the target (same volume, so the final rename is atomic).
    $staged = Join-Path $dir (".poly-install-" + [System.Guid]::NewGuid().ToString('N') + '.exe')
    Copy-Item -LiteralPath $program -Destination $staged
    $check = Invoke-Version $staged
    $reported = $check.Output
    if ($check.Code -ne 0) { Fail "the downloaded poly does not run on this machine: $reported" }
    if ($reported -ne "poly $version" -and -not $reported.StartsWith("poly $version ")) {
      Fail "the downloaded program reports '$reported', not poly ${version}: refusing to install it"
    }
    if (Test-Path -LiteralPath $dest) {
      # Atomic replace; fails (leaving the old poly.exe) when it is running.
      [System.IO.File]::Replace($staged, $dest, [NullString]::Value)
    } else {
      [System.IO.File]::Move($staged, $dest)
    }
    $staged = $null

    $after = Invoke-Version $dest
    $installed = $after.Output
    if ($after.Code -ne 0) { Fail "$dest does not run after installing: $installed" }
    Write-Host "install.ps1: installed $dest"
    Write-Output $installed

    $onPath = ($env:Path -split ';') | Where-Object { $_ -and ($_.TrimEnd('\') -ieq $dir.TrimEnd('\')) }
    if (-not $onPath) {
      Write-Host "install.ps1: note: $dir is not on your PATH; add it for your user with:"
      Write-Host "  [Environment]::SetEnvironmentVariable('Path', `"$dir;`" + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
    }
  } finally {
    if ($staged -and (Test-Path -LiteralPath $staged)) { Remove-Item -LiteralPath $staged -Force -ErrorAction SilentlyContinue }
    Remove-Item -LiteralPath $tmp -Recurse -Force -ErrorAction SilentlyContinue
  }
}

Install-Poly
