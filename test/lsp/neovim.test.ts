/**
 * docs/editors.md's Neovim set-up, run as written in Debian's Neovim (0.7.2 on Debian 12, the
 * oldest version the page supports) against `t2m lsp` from the sources: headless `nvim` opens a
 * script, and the test reads back what the editor got — the diagnostics, a completion list, the
 * quick fix applied, the buffer formatted. Needs `nvim` (`apt-get install -y neovim`; .ci/run
 * installs it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatText } from '../../src/pipeline.js';
import { ROOT } from './client.js';

const DOC_CMD = "{ 'npx', '--no-install', 't2m', 'lsp', '--stdio' }";

/** The first Lua block of the Neovim section: the set-up for every supported version. */
function docSetup(): string {
  const doc = readFileSync(join(ROOT, 'docs/editors.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Neovim'));
  const block = /```lua\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block || !block.includes(DOC_CMD)) throw new Error('docs/editors.md: the Neovim set-up block is missing or no longer starts `npx --no-install t2m lsp --stdio`');
  return block;
}

const SCRIPT = 'ENCODE "x" TAGS "a" TYPE note;\nLOCK WHERE tags HAS "a" LIMIT 2 MODE read_onyl;\n';

/** Drives the editor as a user would, through Neovim's own LSP client, and writes what it saw as JSON. */
const DRIVER = String.raw`
local out = {}
local function finish()
  vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.T2M_OUT)
  vim.cmd('qa!')
end
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.T2M_FILE))
  local buf = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[buf].filetype
  vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  out.clients = #vim.tbl_keys(vim.lsp.buf_get_clients(buf))
  local diags = vim.diagnostic.get(buf)
  out.diagnostics = {}
  for _, d in ipairs(diags) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out.diagnostics, { code = code, lnum = d.lnum, col = d.col, end_col = d.end_col, message = d.message })
  end
  local uri = vim.uri_from_bufnr(buf)
  -- Completion where the mode is written.
  local completion = vim.lsp.buf_request_sync(buf, 'textDocument/completion', {
    textDocument = { uri = uri }, position = { line = 1, character = 37 },
  }, 20000) or {}
  out.completion = {}
  for _, r in pairs(completion) do
    local items = r.result and (r.result.items or r.result) or {}
    for _, item in ipairs(items) do table.insert(out.completion, item.label) end
  end
  -- The quick fix of the first diagnostic, applied.
  local d = diags[1]
  -- As the LSP client sends it back (0.7 keeps only the code in user_data.lsp).
  local lsp_diag = {
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col } },
    message = d.message, code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code), severity = d.severity,
  }
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = uri }, range = lsp_diag.range, context = { diagnostics = { lsp_diag } },
  }, 20000) or {}
  out.actions = {}
  for _, r in pairs(actions) do
    for _, action in ipairs(r.result or {}) do
      table.insert(out.actions, action.title)
      if #out.actions == 1 and action.edit then vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16') end
    end
  end
  out.fixed = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  -- Formatting, by the API the version has.
  if vim.lsp.buf.format then vim.lsp.buf.format({ timeout_ms = 20000 }) else vim.lsp.buf.formatting_sync(nil, 20000) end
  out.formatted = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  out.version = vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch
end)
if not ok then out.error = tostring(err) end
finish()
`;

function hasNvim(): boolean {
  return spawnSync('nvim', ['--version'], { encoding: 'utf8' }).status === 0;
}

describe('Neovim through docs/editors.md', () => {
  it('the documented set-up gives diagnostics, completion, a quick fix and formatting', () => {
    if (!hasNvim()) throw new Error('nvim not found: run `apt-get install -y neovim` (Debian\'s Neovim; .ci/run does)');
    const dir = mkdtempSync(join(tmpdir(), 't2m-nvim-'));
    const file = join(dir, 'script.t2m');
    const out = join(dir, 'out.json');
    writeFileSync(file, SCRIPT);
    // The documented command, pointed at this checkout's sources instead of an installed `t2m`.
    const setup = docSetup().replace(DOC_CMD, `{ ${[process.execPath, '--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'lsp', '--stdio'].map((a) => JSON.stringify(a)).join(', ')} }`);
    writeFileSync(join(dir, 'init.lua'), setup);
    writeFileSync(join(dir, 'driver.lua'), DRIVER);
    execFileSync('nvim', ['--headless', '-u', join(dir, 'init.lua'), '-i', 'NONE', '-n', '-c', `luafile ${join(dir, 'driver.lua')}`], {
      cwd: ROOT, env: { ...process.env, T2M_FILE: file, T2M_OUT: out }, timeout: 120_000, stdio: 'pipe',
    });
    const seen = JSON.parse(readFileSync(out, 'utf8')) as {
      error?: string; filetype: string; clients: number; version: string;
      diagnostics: { code: string; lnum: number; col: number; end_col: number; message: string }[];
      completion: string[]; actions: string[]; fixed: string; formatted: string;
    };
    expect(seen.error, JSON.stringify(seen)).toBeUndefined();
    expect(seen.filetype).toBe('t2m');
    expect(seen.clients, JSON.stringify(seen)).toBe(1);
    expect(seen.diagnostics).toEqual([expect.objectContaining({ code: 'invalid-enum', lnum: 1, col: 37, end_col: 46 })]);
    expect(seen.completion).toEqual(expect.arrayContaining(['read_only', 'append_only']));
    expect(seen.actions, JSON.stringify(seen)).toEqual([expect.stringMatching(/read_only/)]);
    const fixed = SCRIPT.replace('read_onyl', 'read_only');
    expect(`${seen.fixed}\n`).toBe(fixed);
    expect(`${seen.formatted}\n`).toBe(formatText(fixed).text);
    expect(`${seen.formatted}\n`).not.toBe(fixed);
  }, 180_000);
});
