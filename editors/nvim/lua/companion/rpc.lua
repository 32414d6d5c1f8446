-- A small JSON-RPC 2.0 peer for ACP: newline-delimited JSON over a child
-- process's stdio (vim.fn.jobstart). Requests go both ways, notifications,
-- and cancellation with $/cancel_request. The transport is a plain write
-- function, so tests can drive a Conn without a process.
local compat = require('companion.compat')

local M = {}

-- Error codes used on the wire.
M.codes = {
  parse_error = -32700,
  invalid_request = -32600,
  method_not_found = -32601,
  invalid_params = -32602,
  internal_error = -32603,
  request_cancelled = -32800,
  auth_required = -32000,
  not_found = -32002,
}

-- DEFAULT_MAX_LINE bounds one message; a longer line is dropped whole (the
-- TS SDK uses 32 MiB; a whole file in an edit can be large).
M.DEFAULT_MAX_LINE = 64 * 1024 * 1024

-- error builds an error object a handler can raise with error(): the
-- dispatcher answers it as a JSON-RPC error instead of an internal one.
function M.error(code, message, data)
  return { code = code, message = message, data = data, __rpc_error = true }
end

----------------------------------------------------------------------------
-- Decoder: bytes in, complete lines out.

local Decoder = {}
Decoder.__index = Decoder

-- Decoder.new returns a decoder that calls on_line(line) for every complete
-- non-blank line (a trailing \r removed) and on_overflow(bytes) when a line
-- longer than max_line is dropped. Pieces of an unfinished line are kept
-- in a list and joined once, so a huge line costs O(size), not O(size^2).
function M.Decoder(on_line, opts)
  opts = opts or {}
  return setmetatable({
    on_line = on_line,
    on_overflow = opts.on_overflow or function() end,
    max_line = opts.max_line or M.DEFAULT_MAX_LINE,
    parts = {},
    size = 0,
    overflow = false,
  }, Decoder)
end

-- take_line finishes the pending line with its last piece and returns it,
-- or nil when it was dropped as too long.
function Decoder:take_line(piece)
  local line = piece
  if #self.parts > 0 then
    self.parts[#self.parts + 1] = piece
    line = table.concat(self.parts)
    self.parts = {}
  end
  local too_long = self.overflow or self.size + #piece > self.max_line
  local size = self.size + #piece
  self.size, self.overflow = 0, false
  if too_long then
    self.on_overflow(size)
    return nil
  end
  return line
end

-- keep stores the start of an unfinished line.
function Decoder:keep(piece)
  if self.overflow then
    return
  end
  self.size = self.size + #piece
  if self.size > self.max_line then
    self.overflow, self.parts = true, {}
    return
  end
  self.parts[#self.parts + 1] = piece
end

-- feed takes any chunk of bytes: part of a line, many lines, or both.
function Decoder:feed(chunk)
  local start = 1
  while true do
    local nl = chunk:find('\n', start, true)
    if not nl then
      if start <= #chunk then
        self:keep(chunk:sub(start))
      end
      return
    end
    local line = self:take_line(chunk:sub(start, nl - 1))
    start = nl + 1
    if line then
      line = line:gsub('\r$', '')
      if line:find('%S') then
        self.on_line(line)
      end
    end
  end
end

-- jobdata turns the list Neovim's job callbacks hand over (the chunk split
-- at newlines) back into the chunk.
function M.jobdata(data)
  return table.concat(data, '\n')
end

----------------------------------------------------------------------------
-- Conn: one JSON-RPC peer.

local Conn = {}
Conn.__index = Conn

-- Conn.new(opts): opts.write(string) sends bytes; opts.trace(dir, line) sees
-- every line ('send' / 'recv'); opts.log(level, msg) reports problems.
function M.Conn(opts)
  return setmetatable({
    write = opts.write,
    trace = opts.trace,
    log = opts.log or function() end,
    next_id = 0,
    pending = {}, -- outgoing requests: id -> callback(err, result)
    incoming = {}, -- requests being handled: key -> request object
    handlers = {}, -- method -> function(params, req) (requests)
    listeners = {}, -- method -> function(params) (notifications)
    closed = nil, -- the reason, once closed
  }, Conn)
end

-- handle registers the handler of incoming requests for method. The handler
-- gets (params, req): returning a value answers with it; returning nil means
-- it answers later with req.reply(result) or req.fail(code, message);
-- raising rpc.error(...) answers that error.
function Conn:handle(method, fn)
  self.handlers[method] = fn
end

-- on registers the listener of incoming notifications for method.
function Conn:on(method, fn)
  self.listeners[method] = fn
end

-- send encodes and writes one message.
function Conn:send(msg)
  if self.closed then
    return false
  end
  msg.jsonrpc = '2.0'
  local line = vim.json.encode(msg)
  if self.trace then
    self.trace('send', line)
  end
  self.write(line .. '\n')
  return true
end

-- request sends method(params); cb(err, result) runs once with the answer,
-- or with an error when the connection closes first. Returns the id.
function Conn:request(method, params, cb)
  local id = self.next_id
  self.next_id = id + 1
  if self.closed then
    cb(M.error(M.codes.internal_error, 'the agent is not running: ' .. self.closed))
    return id
  end
  self.pending[id] = cb
  self:send({ id = id, method = method, params = params or vim.empty_dict() })
  return id
end

-- notify sends a notification.
function Conn:notify(method, params)
  return self:send({ method = method, params = params or vim.empty_dict() })
end

-- cancel asks the peer to abandon our request id ($/cancel_request). The
-- peer still answers it; the callback runs with that answer.
function Conn:cancel(id)
  if self.pending[id] then
    self:notify('$/cancel_request', { requestId = id })
  end
end

-- key makes a table key of a request id that keeps its JSON type apart
-- (1 and "1" are different requests).
local function key(id)
  return type(id) .. ':' .. tostring(id)
end

-- receive handles one line from the peer (nothing once closed).
function Conn:receive(line)
  if self.closed then
    return
  end
  if self.trace then
    self.trace('recv', line)
  end
  local ok, msg = pcall(vim.json.decode, line)
  if not ok or type(msg) ~= 'table' or compat.islist(msg) then
    self.log('warn', 'unparseable message from the agent: ' .. line:sub(1, 200))
    self:send({ id = vim.NIL, error = { code = M.codes.parse_error, message = 'Parse error.' } })
    return
  end
  if msg.method ~= nil and msg.method ~= vim.NIL then
    if msg.id ~= nil then
      self:dispatch_request(msg)
    else
      self:dispatch_notification(msg)
    end
  elseif msg.id ~= nil then
    self:dispatch_response(msg)
  end
end

-- dispatch_response completes one of our requests.
function Conn:dispatch_response(msg)
  local cb = msg.id ~= vim.NIL and self.pending[msg.id]
  if not cb then
    self.log('debug', 'response to an unknown request: ' .. vim.inspect(msg.id))
    return
  end
  self.pending[msg.id] = nil
  if msg.error ~= nil and msg.error ~= vim.NIL then
    cb(msg.error, nil)
  else
    cb(nil, msg.result)
  end
end

-- dispatch_notification runs the listener; $/cancel_request is ours.
function Conn:dispatch_notification(msg)
  local params = msg.params ~= vim.NIL and msg.params or {}
  if msg.method == '$/cancel_request' then
    self:cancel_incoming(params.requestId)
    return
  end
  local fn = self.listeners[msg.method]
  if not fn then
    return -- unknown notifications are ignored
  end
  local ok, err = pcall(fn, params)
  if not ok then
    self.log('error', msg.method .. ': ' .. tostring(err))
  end
end

-- cancel_incoming marks a request we are handling as cancelled. Its
-- on_cancel hook answers it; without one it fails with -32800 at once.
function Conn:cancel_incoming(id)
  local req = id ~= nil and self.incoming[key(id)]
  if not req or req.done then
    return
  end
  req.cancelled = true
  if req.cancel_hook then
    local ok, err = pcall(req.cancel_hook)
    if not ok then
      self.log('error', 'cancel hook: ' .. tostring(err))
    end
  end
  if not req.done then
    req.fail(M.codes.request_cancelled, 'Request cancelled.')
  end
end

-- new_request makes the object a handler answers through.
function Conn:new_request(msg)
  local k = key(msg.id)
  local req = { id = msg.id, method = msg.method, cancelled = false, done = false }
  local function finish(body)
    if req.done then
      return
    end
    req.done = true
    self.incoming[k] = nil
    body.id = msg.id
    self:send(body)
  end
  function req.reply(result)
    if result == nil then
      result = vim.NIL
    end
    finish({ result = result })
  end
  function req.fail(code, message, data)
    finish({ error = { code = code, message = message, data = data } })
  end
  -- on_cancel sets what to do when the peer cancels this request.
  function req.on_cancel(fn)
    req.cancel_hook = fn
  end
  self.incoming[k] = req
  return req
end

-- dispatch_request runs the handler and answers what it returns or raises.
function Conn:dispatch_request(msg)
  local req = self:new_request(msg)
  local fn = self.handlers[msg.method]
  if not fn then
    req.fail(M.codes.method_not_found, 'Method not found: ' .. tostring(msg.method) .. '.')
    return
  end
  local params = msg.params ~= vim.NIL and msg.params or {}
  local ok, res = pcall(fn, params, req)
  if not ok then
    if type(res) == 'table' and res.__rpc_error then
      req.fail(res.code, res.message, res.data)
    else
      self.log('error', msg.method .. ': ' .. tostring(res))
      req.fail(M.codes.internal_error, tostring(res))
    end
  elseif res ~= nil then
    req.reply(res)
  end
end

-- close fails every pending request with reason and stops sending.
function Conn:close(reason)
  if self.closed then
    return
  end
  self.closed = reason or 'closed'
  local pending = self.pending
  self.pending = {}
  for _, cb in pairs(pending) do
    cb(M.error(M.codes.internal_error, 'the agent is not running: ' .. self.closed))
  end
  for _, req in pairs(self.incoming) do
    req.done = true
    if req.cancel_hook then
      pcall(req.cancel_hook)
    end
  end
  self.incoming = {}
end

----------------------------------------------------------------------------
-- Process transport.

-- spawn starts cmd (a list) with vim.fn.jobstart and returns a Conn over its
-- stdio, plus the job id. opts: cwd, env, trace, log, on_stderr(text),
-- on_exit(code).
function M.spawn(cmd, opts)
  local conn
  local decoder = M.Decoder(function(line)
    conn:receive(line)
  end, {
    on_overflow = function(n)
      conn.log('error', ('dropped a %d-byte message from the agent (over the limit)'):format(n))
    end,
  })
  local job_opts = {
    on_stdout = function(_, data)
      decoder:feed(M.jobdata(data))
    end,
    on_stderr = function(_, data)
      if opts.on_stderr then
        opts.on_stderr(M.jobdata(data))
      end
    end,
    on_exit = function(_, code)
      conn:close(('exited with code %d'):format(code))
      if opts.on_exit then
        opts.on_exit(code)
      end
    end,
    cwd = opts.cwd,
  }
  if opts.env and next(opts.env) then
    job_opts.env = opts.env
  end
  if vim.fn.executable(cmd[1]) ~= 1 then
    return nil, nil, ('%s is not an executable program'):format(cmd[1])
  end
  local ok, job = pcall(vim.fn.jobstart, cmd, job_opts)
  if not ok or job <= 0 then
    -- "Vim:E475: Invalid value for argument cmd: …" → "Invalid value …"
    local why = ok and ('jobstart returned ' .. job) or tostring(job):gsub('^Vim:E%d+: ', '')
    return nil, nil, ('cannot start %s: %s'):format(cmd[1], why)
  end
  conn = M.Conn({
    write = function(s)
      vim.fn.chansend(job, s)
    end,
    trace = opts.trace,
    log = opts.log,
  })
  return conn, job
end

return M
