# Shared by the benchmark scripts: write_section NAME FILE replaces the section of
# BENCHMARKS.md between `<!-- NAME:start -->` and `<!-- NAME:end -->` with FILE's contents
# (appending it if the markers are missing, creating BENCHMARKS.md if needed), then prints it.
# Needs ROOT (the workspace) and a `say` function.

write_section() {
  local name=$1 section=$2
  local out=$ROOT/BENCHMARKS.md
  if [[ ! -f $out ]]; then
    cat >"$out" <<'EOF'
# Benchmarks

Measurements of `xla-layout`: compile time of the `layout!` macro, and runtime. A section
between `<!-- NAME:start -->` and `<!-- NAME:end -->` markers is written by the script it
names, and re-running that script replaces only its own section. The scripts are slow, so they
are run by hand and not by CI.
EOF
  fi
  if grep -q "^<!-- $name:start -->\$" "$out"; then
    awk -v section="$section" -v start="<!-- $name:start -->" -v end="<!-- $name:end -->" '
      $0 == start { while ((getline line < section) > 0) print line; skip = 1; next }
      $0 == end { skip = 0; next }
      !skip { print }
    ' "$out" >"$out.tmp"
    mv "$out.tmp" "$out"
  else
    { echo; cat "$section"; } >>"$out"
  fi
  rm -f "$section"
  say "done: $out"
  sed -n "/^<!-- $name:start -->\$/,/^<!-- $name:end -->\$/p" "$out"
}
