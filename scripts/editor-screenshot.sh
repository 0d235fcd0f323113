#!/usr/bin/env bash
# Redoes assets/editor-typo.png, the screenshot of the CLI guide's typo
# example (examples/check-typo/app.yaml) in Neovim with `celyaml lsp`
# attached: the diagnostic on the misspelt field, its message in a float.
# Not part of CI; run it after a change to the example or to the server's
# messages, and commit the PNG.
#
#   scripts/editor-screenshot.sh [OUT.png]     default: assets/editor-typo.png
#
# Needs nvim (0.7 or later), tmux, aha and chromium (Debian:
# apt-get install -y neovim tmux aha chromium). Neovim runs with a minimal
# init.lua (nothing of the user's configuration) in a detached tmux session
# of 100x30 cells; once the server's diagnostics are on the screen, the
# pane is captured with its colours (tmux capture-pane -e), turned into
# HTML by aha and photographed by headless chromium.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="${1:-assets/editor-typo.png}"
example=examples/check-typo/app.yaml
cols=100 rows=30

for tool in nvim tmux aha; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found; apt-get install -y neovim tmux aha chromium" >&2; exit 1; }
done
chromium="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[[ -n "$chromium" ]] || { echo "error: chromium not found; apt-get install -y chromium" >&2; exit 1; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-screenshot.XXXXXX")"
session="celyaml-screenshot-$$"
cleanup() {
  tmux kill-session -t "$session" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/celyaml" ./cmd/celyaml

# The editor: celyaml lsp for YAML buffers (vim.lsp.start from Neovim 0.8,
# start_client and buf_attach_client before), diagnostics as signs,
# underlines and virtual text; when they arrive, the float with the message
# of the cursor's line opens below it, the cursor being on the typo's line
# and the window starting at the $schema.
cat >"$tmp/init.lua" <<'LUA'
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.opt.laststatus = 2
vim.opt.showmode = false
vim.diagnostic.config({ virtual_text = true, signs = true, underline = true })
-- Colours that read well once captured: a grey float and status line, the
-- underline as a plain red underline (a terminal's undercurl does not
-- survive the capture).
vim.cmd([[
  highlight NormalFloat ctermbg=236 ctermfg=252
  highlight StatusLine cterm=NONE ctermbg=238 ctermfg=252
  highlight SignColumn ctermbg=NONE
  highlight DiagnosticUnderlineError cterm=underline ctermfg=203
]])
local config = { name = "celyaml", cmd = { os.getenv("CELYAML_BIN"), "lsp" }, root_dir = os.getenv("CELYAML_ROOT") }
vim.api.nvim_create_autocmd("FileType", {
  pattern = "yaml",
  callback = function(args)
    if vim.lsp.start then
      vim.lsp.start(config)
    else
      vim.lsp.buf_attach_client(args.buf, vim.lsp.start_client(config))
    end
  end,
})
vim.api.nvim_create_autocmd("DiagnosticChanged", {
  callback = function()
    vim.schedule(function()
      if #vim.diagnostic.get(0) > 0 then
        local _, win = vim.diagnostic.open_float({ scope = "line", focusable = false })
        if win then -- below the line, leaving the lines above it in view
          vim.api.nvim_win_set_config(win, { relative = "cursor", anchor = "NW", row = 1, col = 0 })
        end
      end
    end)
  end,
})
LUA

line="$(grep -n 'replicaCont }' "$example" | cut -d: -f1)"
top="$(grep -n '^\$schema:' "$example" | cut -d: -f1)"
tmux -f /dev/null new-session -d -s "$session" -x "$cols" -y "$rows" \
  env TERM=tmux-256color CELYAML_BIN="$tmp/celyaml" CELYAML_ROOT="$root" \
  nvim -n -i NONE -u "$tmp/init.lua" "+normal! ${top}Gzt${line}G" "$example"

# Wait for the float: its message is on the screen twice (virtual text, cut
# at the edge, and the float), or give up after 30 s.
for _ in $(seq 150); do
  if [[ "$(tmux capture-pane -p -t "$session" | grep -c 'did you mean replicaCount')" -ge 1 ]] &&
    tmux capture-pane -p -t "$session" | grep -q "^.*spec.replicas.\$eval: undefined field 'replicaCont'; did you mean replicaCount?"; then
    break
  fi
  sleep 0.2
done
sleep 0.5
tmux capture-pane -e -p -t "$session" >"$tmp/screen.ansi"
grep -q "did you mean replicaCount" "$tmp/screen.ansi" ||
  { cat "$tmp/screen.ansi" >&2; echo "error: no diagnostic on the screen after 30 s" >&2; exit 1; }

# HTML of the screen, in DejaVu Sans Mono at 15px: 9px by 18px cells, so
# the page is exactly the terminal.
# aha does not know the underline colour (SGR 58), which Neovim sets.
sed -E 's/\x1b\[58;[0-9;]*m//g' "$tmp/screen.ansi" | aha --black --no-header >"$tmp/body.html"
cat >"$tmp/screen.html" <<HTML
<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>
html, body { margin: 0; background: #000; }
pre { margin: 0; padding: 8px; font: 15px/18px "DejaVu Sans Mono", monospace; color: #d0d0d0; }
</style></head><body><pre>$(cat "$tmp/body.html")</pre></body></html>
HTML
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size="$((cols * 9 + 16)),$((rows * 18 + 16))" --screenshot="$tmp/screen.png" "file://$tmp/screen.html" \
  >"$tmp/chromium.log" 2>&1 || { cat "$tmp/chromium.log" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
cp "$tmp/screen.png" "$out"
echo "wrote $out ($(stat -c %s "$out") bytes)"
