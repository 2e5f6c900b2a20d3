-- neovim's built-in LSP client (the API of Debian's neovim 0.7) against `schemac lsp`: open a
-- YAML with an unknown dispatch key, wait for the diagnostic, check its code, source and range;
-- open the folder's .schemac.yaml, see its typo reported, fix and save it and see the finding
-- follow it; apply the quick fix, wait for the diagnostics to clear, hover on the func line,
-- shut down.
-- Any failure prints why on stderr and quits neovim with exit code 1.
local function fail(message)
  io.stderr:write('neovim_client_test: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

local function check(condition, message)
  if not condition then fail(message) end
  return condition
end

local function run()
  local exe = os.getenv('SCHEMAC_EXE')
  if not check(exe and exe ~= '', 'SCHEMAC_EXE is not set') then return end
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local path = dir .. '/native_functions.yaml'
  -- line 1 has non-ASCII text, so a byte/UTF-16 mix-up would show on it; the error is on line 4
  vim.fn.writefile({
    '# opérateurs: 😀',
    '- func: relu(Tensor self) -> Tensor',
    '  dispatch:',
    '    CPU, Cuda: relu_kernel',
  }, path)
  vim.cmd('edit ' .. path)
  local bufnr = vim.api.nvim_get_current_buf()

  local client_id = vim.lsp.start_client({
    cmd = { exe, 'lsp', '--stdio', '--docs-url', 'https://example.org/schemac/docs/' },
    name = 'schemac',
    root_dir = dir,
    flags = { debounce_text_changes = 10 },
  })
  if not check(client_id, 'start_client failed') then return end
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  local got = vim.wait(10000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  if not check(got, 'no diagnostics within 10 s') then return end
  local diagnostics = vim.diagnostic.get(bufnr)
  if not check(#diagnostics == 1, 'expected 1 diagnostic, got ' .. #diagnostics) then return end
  local d = diagnostics[1]
  if not check(d.code == 'unknown-dispatch-key', 'code is ' .. tostring(d.code)) then return end
  if not check(d.source == 'schemac', 'source is ' .. tostring(d.source)) then return end
  if not check(d.lnum == 3 and d.col == 9 and d.end_lnum == 3 and d.end_col == 13,
      string.format('range is %d:%d-%d:%d', d.lnum, d.col, d.end_lnum, d.end_col)) then return end
  if not check(d.severity == vim.diagnostic.severity.ERROR, 'severity is ' .. tostring(d.severity)) then return end
  local href = d.user_data and d.user_data.lsp.codeDescription and d.user_data.lsp.codeDescription.href or ''
  if not check(href == 'https://example.org/schemac/docs/lint-rules.md#unknown-dispatch-key', 'href is ' .. href) then return end

  -- The .schemac.yaml, open in the editor: its typo is a diagnostic there; once saved, it is
  -- read again and the finding above becomes the warning it now says.
  vim.cmd('split ' .. dir .. '/.schemac.yaml')
  local config_buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(config_buf, client_id)
  vim.api.nvim_buf_set_lines(config_buf, 0, -1, false, { 'severty: {unknown-dispatch-key: warning}' })
  got = vim.wait(10000, function()
    local ds = vim.diagnostic.get(config_buf)
    return #ds == 1 and ds[1].code == 'config'
  end, 20)
  if not check(got, 'no config diagnostic in the .schemac.yaml buffer') then return end
  vim.api.nvim_buf_set_lines(config_buf, 0, -1, false, { 'severity: {unknown-dispatch-key: warning}' })
  vim.cmd('write')
  got = vim.wait(10000, function()
    local ds = vim.diagnostic.get(bufnr)
    return #ds == 1 and ds[1].severity == vim.diagnostic.severity.WARN
  end, 20)
  if not check(got, 'the saved .schemac.yaml was not read again') then return end
  vim.cmd('close')

  local uri = vim.uri_from_bufnr(bufnr)
  local range = {
    start = { line = d.lnum, character = d.col },
    ['end'] = { line = d.end_lnum, character = d.end_col },
  }
  local reply = client.request_sync('textDocument/codeAction',
    { textDocument = { uri = uri }, range = range, context = { diagnostics = { d.user_data.lsp } } }, 5000, bufnr)
  -- The fix first, then "suppress on this line".
  if not check(reply and reply.result and #reply.result == 2, 'expected two code actions') then return end
  if not check(reply.result[2].title == 'suppress [unknown-dispatch-key] on this line',
               'the second action is ' .. tostring(reply.result[2].title)) then return end
  local action = reply.result[1]
  if not check(action.kind == 'quickfix', 'action kind is ' .. tostring(action.kind)) then return end
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  local line = vim.api.nvim_buf_get_lines(bufnr, 3, 4, false)[1]
  if not check(line == '    CPU, CUDA: relu_kernel', 'after the fix line 4 is ' .. line) then return end
  got = vim.wait(10000, function() return #vim.diagnostic.get(bufnr) == 0 end, 20)
  if not check(got, 'the diagnostic was not cleared after the fix') then return end

  reply = client.request_sync('textDocument/hover',
    { textDocument = { uri = uri }, position = { line = 1, character = 10 } }, 5000, bufnr)
  local hover = reply and reply.result and reply.result.contents and reply.result.contents.value or ''
  if not check(hover:find('relu(Tensor self) -> Tensor', 1, true), 'hover is ' .. hover) then return end
  if not check(hover:find('at::Tensor relu_kernel(const at::Tensor& self);', 1, true), 'hover is ' .. hover) then return end

  client.stop()
  got = vim.wait(5000, function() return client.is_stopped() end, 20)
  if not check(got, 'the server did not stop') then return end
  vim.fn.delete(dir, 'rf')
  io.stdout:write('neovim_client_test: ok\n')
  vim.cmd('qa!')
end

local ok, err = pcall(run)
if not ok then fail(tostring(err)) end
