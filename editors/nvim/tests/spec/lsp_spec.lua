-- _companion/lsp: companion's language questions answered by the language
-- server attached to the file's buffer (a stub client here: Neovim 0.7 has
-- no server to attach in CI), and, against the real binary, the agent's
-- lsp_definition tool answered by it, with the editor listed in the stats.
local h = require('helpers')
local lsp = require('companion.lsp')

-- stub_client is an attached client providing caps; answer(method, params)
-- is its server's result. It records the requests it gets.
local function stub_client(caps, encoding, answer)
  local c = { name = 'stub', offset_encoding = encoding, server_capabilities = caps, asked = {} }
  c.request = function(...)
    local args = { ... }
    if args[1] == c then
      table.remove(args, 1)
    end
    local method, params, handler = args[1], args[2], args[3]
    table.insert(c.asked, { method = method, params = params })
    vim.schedule(function() handler(nil, answer(method, params)) end)
    return true, 1
  end
  return c
end

-- ask runs the handler and waits for its answer: { result = …, err = … }.
local function ask(p)
  local got
  local req = {
    reply = function(res) got = { result = res } end,
    fail = function(code, msg) got = { err = { code = code, message = msg } } end,
  }
  local now = lsp.handle(p, req)
  if now ~= nil then
    return { result = now }
  end
  h.wait(function() return got end, 'the answer to ' .. p.method)
  return got
end

describe('lsp', function()
  local clients = lsp.clients
  after_each(function()
    lsp.clients = clients
    h.reset()
  end)

  it('answers with the attached client, converting the position to its encoding', function()
    local dir = vim.fn.resolve(vim.fn.tempname())
    local file = dir .. '/a.go'
    h.write_file(file, 'x := "é"; hello()\n')
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local loc = { uri = vim.uri_from_fname(dir .. '/b.go'), range = { start = { line = 3, character = 5 }, ['end'] = { line = 3, character = 10 } } }
    local c = stub_client({ definitionProvider = true }, 'utf-8', function() return { loc } end)
    lsp.clients = function() return { c } end
    -- "hello" starts at UTF-16 character 10, byte 11 (é is 2 bytes, 1 unit).
    local got = ask({ path = file, method = 'textDocument/definition',
      params = { textDocument = { uri = vim.uri_from_fname(file) }, position = { line = 0, character = 10 } } })
    assert.is_nil(got.err)
    assert.is_true(got.result.available)
    assert.are.same({ loc }, got.result.result)
    assert.are.same({ line = 0, character = 11 }, c.asked[1].params.position)
    -- No hover provider, a rename from a UTF-8 client, a file not loaded:
    -- companion is told to ask its own server.
    assert.is_false(ask({ path = file, method = 'textDocument/hover', params = { position = { line = 0, character = 0 } } }).result.available)
    local rn = ask({ path = file, method = 'textDocument/rename', params = { position = { line = 0, character = 0 }, newName = 'x' } })
    assert.is_false(rn.result.available)
    assert.is_false(ask({ path = dir .. '/not-open.go', method = 'textDocument/definition', params = { position = { line = 0, character = 0 } } }).result.available)
    assert.are.equal(1, #c.asked, 'no request reached the client for the refused ones')
  end)

  it('answers a buffer\'s diagnostics once they change', function()
    local file = vim.fn.resolve(vim.fn.tempname()) .. '.go'
    h.write_file(file, 'package main\n\nfunc main() {\n\tx := 1\n}\n')
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local buf = vim.api.nvim_get_current_buf()
    lsp.clients = function() return { stub_client({}, 'utf-16', function() end) } end
    local got
    lsp.handle({ path = file, method = 'textDocument/diagnostic', params = { textDocument = { uri = vim.uri_from_fname(file) } } },
      { reply = function(res) got = res end, fail = function() end })
    local ns = vim.api.nvim_create_namespace('companion-lsp-spec')
    vim.diagnostic.set(ns, buf, { { lnum = 3, col = 1, end_lnum = 3, end_col = 2, severity = vim.diagnostic.severity.ERROR,
      message = 'declared and not used: x', source = 'compiler' } })
    h.wait(function() return got end, 'the diagnostics')
    assert.is_true(got.available)
    assert.are.equal('full', got.result.kind)
    assert.are.same({ { range = { start = { line = 3, character = 1 }, ['end'] = { line = 3, character = 2 } },
      severity = 1, message = 'declared and not used: x', source = 'compiler' } }, got.result.items)
  end)

  it('the agent\'s lsp_definition is answered by the attached server; the stats list the editor', function()
    local env = h.start('lsp')
    h.write_file(env.project .. '/main.go', 'package main\nfunc main() { hello() }\n')
    h.write_file(env.project .. '/lib.go', 'package main\nfunc hello() {}\n')
    vim.cmd('edit ' .. vim.fn.fnameescape(env.project .. '/main.go'))
    local lib = vim.uri_from_fname(vim.fn.resolve(env.project .. '/lib.go'))
    local c = stub_client({ definitionProvider = true }, 'utf-16', function()
      return { { uri = lib, range = { start = { line = 1, character = 5 }, ['end'] = { line = 1, character = 10 } } } }
    end)
    lsp.clients = function() return { c } end
    vim.cmd('Companion lsp-where is hello')
    h.wait(function() return h.transcript():find('Found hello in lib.go.', 1, true) end, 'the answer')
    h.wait_turn()
    assert.are.equal('textDocument/definition', c.asked[1].method)
    local shown
    require('companion').stats(function(err, buf) shown = { err = err, buf = buf } end)
    h.wait(function() return shown end, 'the stats float')
    assert.is_nil(shown.err)
    local text = table.concat(vim.api.nvim_buf_get_lines(shown.buf, 0, -1, false), '\n')
    assert.matches('Language servers:\n- the editor: its own language features are asked first', text, 1, true)
  end)
end)
