-- Unit tests of the JSON-RPC layer: framing and the request machinery.
local rpc = require('companion.rpc')

-- collect returns a decoder and the list its lines go to.
local function collect(opts)
  local lines = {}
  local d = rpc.Decoder(function(l) lines[#lines + 1] = l end, opts)
  return d, lines
end

-- pair makes a Conn whose writes are decoded into sent messages.
local function pair()
  local sent = {}
  local conn = rpc.Conn({ write = function(s)
    assert.are.equal('\n', s:sub(-1))
    assert.is_nil(s:sub(1, -2):find('\n'), 'one message per line')
    sent[#sent + 1] = vim.json.decode(s)
  end })
  return conn, sent
end

describe('rpc.Decoder', function()
  it('joins a line split over many chunks', function()
    local d, lines = collect()
    for _, piece in ipairs({ '{"a"', ':1', '}', '\n' }) do
      d:feed(piece)
    end
    assert.are.same({ '{"a":1}' }, lines)
  end)

  it('splits many messages in one chunk and keeps the unfinished one', function()
    local d, lines = collect()
    d:feed('{"n":1}\n{"n":2}\r\n\n  \n{"n":3}\n{"n":')
    assert.are.same({ '{"n":1}', '{"n":2}', '{"n":3}' }, lines)
    d:feed('4}\n')
    assert.are.same('{"n":4}', lines[4])
  end)

  it('handles Neovim job chunks (lists split at newlines)', function()
    local d, lines = collect()
    d:feed(rpc.jobdata({ '{"x":1}', '{"x"' }))
    d:feed(rpc.jobdata({ ':2}', '' }))
    assert.are.same({ '{"x":1}', '{"x":2}' }, lines)
  end)

  it('takes a 5 MB line in small chunks', function()
    local d, lines = collect()
    local big = '{"text":"' .. string.rep('x', 5 * 1024 * 1024) .. '"}'
    for i = 1, #big, 65536 do
      d:feed(big:sub(i, i + 65535))
    end
    assert.are.equal(0, #lines)
    d:feed('\n{"after":true}\n')
    assert.are.equal(2, #lines)
    assert.are.equal(#big, #lines[1])
    assert.are.equal(5 * 1024 * 1024, #vim.json.decode(lines[1]).text)
  end)

  it('drops a line over the limit and goes on', function()
    local dropped
    local d, lines = collect({ max_line = 10, on_overflow = function(n) dropped = n end })
    d:feed('{"aaaaa":')
    d:feed('"bbbbbbbbbb"}\n{"ok":1}\n')
    assert.are.equal(22, dropped)
    assert.are.same({ '{"ok":1}' }, lines)
  end)
end)

describe('rpc.Conn', function()
  it('matches responses to requests by id, errors included', function()
    local conn, sent = pair()
    local got = {}
    local a = conn:request('a', { x = 1 }, function(err, res) got.a = { err, res } end)
    local b = conn:request('b', nil, function(err, res) got.b = { err, res } end)
    assert.are.same({ 'a', 'b' }, { sent[1].method, sent[2].method })
    assert.are.equal('2.0', sent[1].jsonrpc)
    conn:receive(vim.json.encode({ jsonrpc = '2.0', id = b, error = { code = -32602, message = 'bad' } }))
    conn:receive(vim.json.encode({ jsonrpc = '2.0', id = a, result = { ok = true } }))
    assert.are.equal(-32602, got.b[1].code)
    assert.are.same({ ok = true }, got.a[2])
    assert.is_nil(got.a[1])
  end)

  it('answers incoming requests with the same id type, sync and async', function()
    local conn, sent = pair()
    local later
    conn:handle('sync', function(p) return { echo = p.v } end)
    conn:handle('async', function(_, req) later = req end)
    conn:receive('{"jsonrpc":"2.0","id":"s-1","method":"sync","params":{"v":7}}')
    assert.are.same({ jsonrpc = '2.0', id = 's-1', result = { echo = 7 } }, sent[1])
    conn:receive('{"jsonrpc":"2.0","id":5,"method":"async","params":{}}')
    assert.are.equal(1, #sent)
    later.reply({ done = true })
    assert.are.same({ jsonrpc = '2.0', id = 5, result = { done = true } }, sent[2])
  end)

  it('turns unknown methods, raised rpc errors and crashes into errors', function()
    local conn, sent = pair()
    conn:handle('nf', function() error(rpc.error(rpc.codes.not_found, 'no such file')) end)
    conn:handle('crash', function() error('boom') end)
    conn:receive('{"jsonrpc":"2.0","id":1,"method":"missing"}')
    conn:receive('{"jsonrpc":"2.0","id":2,"method":"nf"}')
    conn:receive('{"jsonrpc":"2.0","id":3,"method":"crash"}')
    assert.are.equal(-32601, sent[1].error.code)
    assert.are.same({ -32002, 'no such file' }, { sent[2].error.code, sent[2].error.message })
    assert.are.equal(-32603, sent[3].error.code)
    assert.is_nil(sent[3].result)
  end)

  it('routes notifications and ignores unknown ones', function()
    local conn, sent = pair()
    local seen
    conn:on('session/update', function(p) seen = p.x end)
    conn:receive('{"jsonrpc":"2.0","method":"session/update","params":{"x":3}}')
    conn:receive('{"jsonrpc":"2.0","method":"_unknown/thing","params":{}}')
    assert.are.equal(3, seen)
    assert.are.equal(0, #sent)
  end)

  it('cancels an incoming request: the hook answers, exactly once', function()
    local conn, sent = pair()
    local req
    conn:handle('wait', function(_, r)
      req = r
      r.on_cancel(function() r.reply({ outcome = { outcome = 'cancelled' } }) end)
    end)
    conn:receive('{"jsonrpc":"2.0","id":9,"method":"wait","params":{}}')
    conn:receive('{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":9}}')
    assert.is_true(req.cancelled)
    assert.are.same({ outcome = { outcome = 'cancelled' } }, sent[1].result)
    req.reply({ late = true })
    conn:receive('{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":9}}')
    assert.are.equal(1, #sent)
  end)

  it('cancels an incoming request without a hook with -32800', function()
    local conn, sent = pair()
    conn:handle('wait', function() end)
    conn:receive('{"jsonrpc":"2.0","id":"w","method":"wait","params":{}}')
    conn:receive('{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"w"}}')
    assert.are.same({ 'w', -32800 }, { sent[1].id, sent[1].error.code })
  end)

  it('sends $/cancel_request for its own pending requests only', function()
    local conn, sent = pair()
    local got
    local id = conn:request('slow', {}, function(err) got = err end)
    conn:cancel(id)
    assert.are.same({ '$/cancel_request', id }, { sent[2].method, sent[2].params.requestId })
    conn:receive(vim.json.encode({ jsonrpc = '2.0', id = id, error = { code = -32800, message = 'cancelled' } }))
    assert.are.equal(-32800, got.code)
    conn:cancel(id)
    assert.are.equal(2, #sent)
  end)

  it('fails pending requests when closed, and later ones at once', function()
    local conn = pair()
    local first, second
    conn:request('x', {}, function(err) first = err end)
    conn:close('exited with code 1')
    conn:request('y', {}, function(err) second = err end)
    assert.matches('exited with code 1', first.message)
    assert.matches('not running', second.message)
  end)

  it('answers a garbage line with a parse error', function()
    local conn, sent = pair()
    conn:receive('{not json')
    assert.are.equal(-32700, sent[1].error.code)
    assert.are.equal(vim.NIL, sent[1].id)
  end)
end)
