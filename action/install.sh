#!/usr/bin/env bash
# The install step of action.yml: puts the prebuilt cgp CGP_VERSION on PATH
# (GITHUB_PATH) from the cgp-cli wheel (CGP_INSTALLER=pip, into a virtual
# environment under RUNNER_TEMP) or the cgp-cli npm package (npm, into a
# prefix under RUNNER_TEMP), from the package index or from the directory
# CGP_PACKAGE_SOURCE. Writes cgp-version to GITHUB_OUTPUT.
set -euo pipefail

version="${CGP_VERSION:?the version input is empty}"
installer="${CGP_INSTALLER:-pip}"
source_dir="${CGP_PACKAGE_SOURCE:-}"
temp="${RUNNER_TEMP:?RUNNER_TEMP is not set}"

case "$installer" in
  pip)
    venv="$temp/cgp-venv"
    python3 -m venv "$venv"
    if [ -n "$source_dir" ]; then
      "$venv/bin/python" -m pip install --disable-pip-version-check --quiet \
        --no-index --find-links "$source_dir" "cgp-cli==$version"
    else
      "$venv/bin/python" -m pip install --disable-pip-version-check --quiet "cgp-cli==$version"
    fi
    bin="$venv/bin"
    ;;
  npm)
    prefix="$temp/cgp-npm"
    mkdir -p "$prefix"
    if [ -n "$source_dir" ]; then
      packages=("$source_dir/cgp-cli-$version.tgz")
      for platform in "$source_dir"/cgp-cli-*-"$version".tgz; do
        [ -e "$platform" ] && packages+=("$platform")
      done
      npm install --prefix "$prefix" --no-audit --no-fund --offline "${packages[@]}"
    else
      npm install --prefix "$prefix" --no-audit --no-fund "cgp-cli@$version"
    fi
    bin="$prefix/node_modules/.bin"
    ;;
  *)
    echo "::error title=cgp action::installer must be pip or npm, not '$installer'"
    exit 2
    ;;
esac

printed="$("$bin/cgp" --version)"
if [ "$printed" != "cgp $version" ]; then
  echo "::error title=cgp action::installed '$printed', not cgp $version"
  exit 2
fi
echo "$bin" >> "${GITHUB_PATH:?GITHUB_PATH is not set}"
echo "cgp-version=$printed" >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
echo "$printed installed with $installer"
