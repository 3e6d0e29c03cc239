# Sourced by scripts/diff-actions.sh and scripts/diff-mates.sh: the tools they need, and the
# random games they give ftxi.

# need NAME TOOL...: stops the script (status 2) at the first TOOL that is not an executable.
need() {
  local name=$1 tool
  shift
  for tool in "$@"; do
    if [[ ! -x $tool ]]; then
      echo "$name: $tool is missing (build it first; FTXI names ftxi's 5dtools)" >&2
      exit 2
    fi
  done
}

# random_games BUILD GAMES SEED MAX_ACTIONS FILE: gen_games' random games (4 to MAX_ACTIONS
# actions) in the variants ftxi reads by name, queens only (ftxi reads no other promotion), or,
# when CUSTOM is set, each from a random custom 8x8 board of its own (5DFEN).
random_games() {
  local starts=(--variants "Standard,Standard - Turn Zero,Very Small - Open" --promotions Q)
  [[ -n ${CUSTOM:-} ]] && starts=(--custom)
  "$1/tests/gen_games" --games "$2" --seed "$3" --min-actions 4 --max-actions "$4" \
    "${starts[@]}" --out "$5" 2>/dev/null
}
