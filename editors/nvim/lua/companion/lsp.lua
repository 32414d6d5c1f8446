-- companion's _companion/lsp request: one LSP request about one file,
-- answered by the language server Neovim has attached to the file's buffer,
-- so that companion does not start a second one. The plugin offers it with
-- clientCapabilities._meta.companion.lsp.
--
-- The answer is { available = false } when no loaded buffer of the file has
-- an attached client that provides the method (companion then asks its own
-- server), else { available = true, result = <the server's answer> }.
-- Positions come in UTF-16 code units and are converted for clients that
-- count otherwise; a rename is only taken from a UTF-16 client (its edit is
-- applied by companion, which counts in UTF-16). textDocument/diagnostic
-- waits up to DIAGNOSTICS_SETTLE_MS for the buffer's diagnostics to change
-- (companion just edited the file), then answers vim.diagnostic.get's as a
-- full report.
local rpc = require('companion.rpc')

local M = {}

M.METHOD = '_companion/lsp'

-- DIAGNOSTICS_SETTLE_MS bounds the wait for a buffer's diagnostics to change.
M.DIAGNOSTICS_SETTLE_MS = 1000

-- TIMEOUT_MS bounds a server's answer; past it companion gets an error and
-- asks its own server.
M.TIMEOUT_MS = 5000

-- providers names the server capability each method needs.
local providers = {
  ['textDocument/definition'] = 'definitionProvider',
  ['textDocument/references'] = 'referencesProvider',
  ['textDocument/hover'] = 'hoverProvider',
  ['textDocument/documentSymbol'] = 'documentSymbolProvider',
  ['workspace/symbol'] = 'workspaceSymbolProvider',
  ['textDocument/rename'] = 'renameProvider',
}

-- clients lists the LSP clients attached to buffer buf (Neovim 0.7 to 0.11).
-- Tests replace it.
function M.clients(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  if vim.fn.has('nvim-0.8') == 1 then
    return vim.lsp.get_active_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf) or {})
end

-- client_for returns the first client of buf providing method's capability
-- (any client for diagnostics).
local function client_for(buf, method)
  local need = providers[method]
  for _, c in ipairs(M.clients(buf)) do
    local caps = c.server_capabilities or c.resolved_capabilities or {}
    if not need or caps[need] then
      return c
    end
  end
  return nil
end

-- encoded converts params' UTF-16 position to the client's encoding.
local function encoded(buf, client, params)
  local enc = client.offset_encoding or 'utf-16'
  local pos = params.position
  if enc == 'utf-16' or type(pos) ~= 'table' then
    return params
  end
  local line = vim.api.nvim_buf_get_lines(buf, pos.line, pos.line + 1, false)[1] or ''
  local ok, byte = pcall(vim.str_byteindex, line, pos.character, true)
  if not ok then
    byte = #line
  end
  local char = byte
  if enc == 'utf-32' then
    char = vim.str_utfindex(line, byte)
  end
  local out = vim.deepcopy(params)
  out.position = { line = pos.line, character = char }
  return out
end

-- request sends method to client, calling done(err, result) once (an error
-- after TIMEOUT_MS).
local function request(client, buf, method, params, done)
  local finished = false
  local function finish(err, result)
    if not finished then
      finished = true
      done(err, result)
    end
  end
  local handler = function(err, result)
    finish(err, result)
  end
  local ok
  if vim.fn.has('nvim-0.11') == 1 then
    ok = client:request(method, params, handler, buf)
  else
    ok = client.request(method, params, handler, buf)
  end
  if not ok then
    return finish({ message = client.name .. ' did not take the request' })
  end
  vim.defer_fn(function()
    finish({ message = client.name .. ' did not answer ' .. method .. ' within ' .. M.TIMEOUT_MS .. ' ms' })
  end, M.TIMEOUT_MS)
end

-- diagnostics answers the buffer's diagnostics once they changed or after
-- the settle time.
local function diagnostics(buf, reply)
  local sent = false
  local function send()
    if sent then
      return
    end
    sent = true
    local items = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      items[#items + 1] = {
        range = {
          start = { line = d.lnum, character = d.col or 0 },
          ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col or 0 },
        },
        severity = d.severity, message = d.message, source = d.source,
      }
    end
    reply({ available = true, result = { kind = 'full', items = items } })
  end
  local id
  id = vim.api.nvim_create_autocmd('DiagnosticChanged', {
    callback = function(args)
      if args.buf == buf then
        pcall(vim.api.nvim_del_autocmd, id)
        vim.schedule(send)
      end
    end,
  })
  vim.defer_fn(function()
    pcall(vim.api.nvim_del_autocmd, id)
    send()
  end, M.DIAGNOSTICS_SETTLE_MS)
end

-- handle is the rpc handler of METHOD: it answers later through req.
function M.handle(p, req)
  p = p or {}
  if type(p.path) ~= 'string' or type(p.method) ~= 'string' then
    error(rpc.error(rpc.codes.invalid_params, 'path and method are required'))
  end
  local buf = require('companion.fs').find_buffer(p.path)
  local client = buf and client_for(buf, p.method)
  local unavailable = not client or (p.method ~= 'textDocument/diagnostic' and not providers[p.method])
    or (p.method == 'textDocument/rename' and (client.offset_encoding or 'utf-16') ~= 'utf-16')
  if unavailable then
    return { available = false }
  end
  if p.method == 'textDocument/diagnostic' then
    diagnostics(buf, req.reply)
    return nil
  end
  request(client, buf, p.method, encoded(buf, client, p.params or {}), function(err, result)
    if err then
      req.fail(rpc.codes.internal_error, tostring(err.message or err))
    else
      req.reply({ available = true, result = result == nil and vim.NIL or result })
    end
  end)
  return nil
end

return M
