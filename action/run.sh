#!/usr/bin/env bash
# The run step of action.yml: runs `cgp validate`, `cgp check` or
# `cgp vectors run` with --format github from the CGP_* variables the action
# sets from its inputs, writes exit-code to GITHUB_OUTPUT and exits with it.
# Inputs are split on whitespace into arguments, never evaluated.
set -uo pipefail
shopt -s globstar

mode="${CGP_MODE:-validate}"
read -r -a extra <<< "${CGP_ARGS:-}"
arguments=()

provider() {
  if [ -n "${CGP_URL:-}" ]; then
    arguments+=(--http "$CGP_URL")
    [ -n "${CGP_BEARER_ENV:-}" ] && arguments+=(--bearer-env "$CGP_BEARER_ENV")
    [ -n "${CGP_CA_CERT:-}" ] && arguments+=(--ca-cert "$CGP_CA_CERT")
  fi
  arguments+=("${extra[@]}")
  if [ -n "${CGP_COMMAND:-}" ]; then
    read -r -a command <<< "$CGP_COMMAND"
    arguments+=(-- "${command[@]}")
  fi
}

case "$mode" in
  validate)
    # Globs expand here (unquoted on purpose); a pattern matching nothing
    # stays as written, and cgp reports the missing file.
    # shellcheck disable=SC2206
    files=(${CGP_FILES:-})
    if [ "${#files[@]}" -eq 0 ]; then
      echo "::error title=cgp action::mode validate needs the files input"
      exit 2
    fi
    arguments=(validate --format github "${extra[@]}" "${files[@]}")
    ;;
  check)
    if [ -z "${CGP_URL:-}" ] && [ -z "${CGP_COMMAND:-}" ]; then
      echo "::error title=cgp action::mode check needs the url or the command input"
      exit 2
    fi
    if [ -n "${CGP_URL:-}" ] && [ -n "${CGP_COMMAND:-}" ]; then
      echo "::error title=cgp action::mode check takes the url or the command input, not both"
      exit 2
    fi
    arguments=(check --format github)
    provider
    ;;
  vectors)
    # shellcheck disable=SC2206
    files=(${CGP_FILES:-})
    arguments=(vectors run --format github "${files[@]}")
    provider
    ;;
  *)
    echo "::error title=cgp action::mode must be validate, check or vectors, not '$mode'"
    exit 2
    ;;
esac

cgp "${arguments[@]}"
status=$?
echo "exit-code=$status" >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
exit "$status"
