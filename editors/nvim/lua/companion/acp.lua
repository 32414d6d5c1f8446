-- The ACP client connection: starts `companion acp`, initializes with the
-- capabilities this plugin really implements, and wraps the agent methods.
-- Client-side methods (permission, fs, terminal) are registered by whoever
-- owns the UI through Client:handle.
local rpc = require('companion.rpc')

local M = {}

-- PROTOCOL_VERSION is the ACP major version spoken.
M.PROTOCOL_VERSION = 1

-- VERSION is the plugin's version, sent as clientInfo.
M.VERSION = '0.1.0'

-- capabilities returns clientCapabilities: every one is implemented in
-- fs.lua, terminal.lua, elicit.lua, the config option picker and lsp.lua
-- (companion's _companion/lsp, in _meta).
function M.capabilities()
  return {
    _meta = { companion = { lsp = true } },
    fs = { readTextFile = true, writeTextFile = true },
    terminal = true,
    elicitation = { form = vim.empty_dict() },
    session = {
      configOptions = { boolean = vim.empty_dict() },
      notices = vim.empty_dict(),
    },
  }
end

local Client = {}
Client.__index = Client

-- new makes a client. opts: cmd (argv list), cwd, env, trace (file path or
-- function(dir, line)),
-- log(level, msg), on_update(sessionId, update), on_exit(code, stderr).
function M.new(opts)
  return setmetatable({ opts = opts, handlers = {}, stderr = {}, info = nil }, Client)
end

-- handle registers a client-side request handler (see rpc.Conn:handle).
function Client:handle(method, fn)
  self.handlers[method] = fn
  if self.conn then
    self.conn:handle(method, fn)
  end
end

-- tracer returns the trace hook: the function given, or one appending
-- each message to the file named.
local function tracer(path)
  if type(path) == 'function' then
    return path
  end
  if not path then
    return nil
  end
  local f = io.open(path, 'a')
  if not f then
    return nil
  end
  return function(dir, line)
    if io.type(f) ~= 'file' then
      return -- closed by stop()
    end
    f:write(dir == 'send' and '> ' or '< ', line, '\n')
    f:flush()
  end, f
end

-- keep_stderr remembers the agent's last stderr lines for error messages.
function Client:keep_stderr(text)
  for _, l in ipairs(vim.split(text, '\n', { plain = true })) do
    if l ~= '' then
      table.insert(self.stderr, l)
      if #self.stderr > 50 then
        table.remove(self.stderr, 1)
      end
    end
  end
end

-- spawn starts the process and wires the handlers.
function Client:spawn()
  local o = self.opts
  local trace, trace_file = tracer(o.trace)
  self.trace_file = trace_file
  local conn, job, err = rpc.spawn(o.cmd, {
    cwd = o.cwd,
    env = o.env,
    trace = trace,
    log = o.log,
    on_stderr = function(text)
      self:keep_stderr(text)
    end,
    on_exit = function(code)
      self.running = false
      if o.on_exit then
        o.on_exit(code, table.concat(self.stderr, '\n'))
      end
    end,
  })
  if not conn then
    return err
  end
  self.conn, self.job, self.running = conn, job, true
  for method, fn in pairs(self.handlers) do
    conn:handle(method, fn)
  end
  conn:on('session/update', function(p)
    if o.on_update then
      o.on_update(p.sessionId, p.update or {})
    end
  end)
  return nil
end

-- start spawns the agent and initializes; cb(err, initialize result).
function Client:start(cb)
  local err = self:spawn()
  if err then
    cb(rpc.error(rpc.codes.internal_error, err))
    return
  end
  self.conn:request('initialize', {
    protocolVersion = M.PROTOCOL_VERSION,
    clientCapabilities = M.capabilities(),
    clientInfo = { name = 'companion.nvim', title = 'companion for Neovim', version = M.VERSION },
  }, function(ierr, res)
    if not ierr then
      self.info = res
    end
    cb(ierr, res)
  end)
end

-- supports tells whether the agent advertised a feature: 'load', 'list',
-- 'embedded', 'image', 'ide_context', 'rewind', 'stats'.
function Client:supports(what)
  local caps = self.info and self.info.agentCapabilities or {}
  local sc = caps.sessionCapabilities or {}
  local pc = caps.promptCapabilities or {}
  local meta = type(caps._meta) == 'table' and caps._meta.companion or {}
  local map = {
    load = caps.loadSession == true,
    list = sc.list ~= nil and sc.list ~= vim.NIL,
    embedded = pc.embeddedContext == true,
    image = pc.image == true,
    ide_context = type(meta) == 'table' and meta.ideContext == true,
    rewind = type(meta) == 'table' and meta.rewind == true,
    stats = type(meta) == 'table' and meta.stats == true,
  }
  return map[what] == true
end

-- request sends an agent method; cb(err, result). Returns the request id.
function Client:request(method, params, cb)
  return self.conn:request(method, params, cb or function() end)
end

-- rewind forks session_id before its prompt-th user message (0-based),
-- restoring the files; cb(err, { sessionId, prompt, restored }).
function Client:rewind(session_id, prompt, cb)
  return self:request('_companion/session/rewind', { sessionId = session_id, prompt = prompt, restoreFiles = true }, cb)
end

-- stats asks for session_id's figures; cb(err, { requests, errors, tokens,
-- cacheHitRatio, modelTimeMs, toolTimeMs, toolCalls, …, models, tools }).
function Client:stats(session_id, cb)
  return self:request('_companion/session/stats', { sessionId = session_id }, cb)
end

-- new_session starts a session in cwd.
function Client:new_session(cwd, cb)
  return self:request('session/new', { cwd = cwd, mcpServers = {} }, cb)
end

-- load_session replays session id; updates arrive before cb.
function Client:load_session(id, cwd, cb)
  return self:request('session/load', { sessionId = id, cwd = cwd, mcpServers = {} }, cb)
end

-- list_sessions lists the sessions of cwd, following cursors.
function Client:list_sessions(cwd, cb, acc, cursor)
  acc = acc or {}
  self:request('session/list', { cwd = cwd, cursor = cursor }, function(err, res)
    if err then
      cb(err, acc)
      return
    end
    vim.list_extend(acc, res.sessions or {})
    local next_cursor = res.nextCursor
    if type(next_cursor) == 'string' and next_cursor ~= '' then
      self:list_sessions(cwd, cb, acc, next_cursor)
    else
      cb(nil, acc)
    end
  end)
end

-- prompt sends a turn; cb(err, {stopReason}).
function Client:prompt(session_id, blocks, cb)
  return self:request('session/prompt', { sessionId = session_id, prompt = blocks }, cb)
end

-- cancel asks the agent to stop the session's turn.
function Client:cancel(session_id)
  self.conn:notify('session/cancel', { sessionId = session_id })
end

-- set_config_option changes a select (string) or boolean option.
function Client:set_config_option(session_id, config_id, value, cb)
  local p = { sessionId = session_id, configId = config_id, value = value }
  if type(value) == 'boolean' then
    p.type = 'boolean'
  end
  return self:request('session/set_config_option', p, cb)
end

-- set_mode changes the legacy session mode.
function Client:set_mode(session_id, mode_id, cb)
  return self:request('session/set_mode', { sessionId = session_id, modeId = mode_id }, cb)
end

-- authenticate runs the agent auth method id.
function Client:authenticate(method_id, cb)
  return self:request('authenticate', { methodId = method_id }, cb)
end

-- notify sends a notification (e.g. _companion/ide/contextUpdate).
function Client:notify(method, params)
  if self.conn and self.running then
    self.conn:notify(method, params)
  end
end

-- stop closes stdin and ends the process.
function Client:stop()
  if self.job and self.running then
    vim.fn.chanclose(self.job, 'stdin')
    -- ACP clients close stdin, then terminate: give it a moment to exit.
    local job = self.job
    vim.defer_fn(function()
      pcall(vim.fn.jobstop, job)
    end, 500)
  end
  if self.conn then
    self.conn:close('stopped')
  end
  if self.trace_file then
    self.trace_file:close()
    self.trace_file = nil
  end
  self.running = false
end

return M
