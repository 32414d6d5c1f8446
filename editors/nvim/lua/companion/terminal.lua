-- The client side of terminal/*: each agent command runs as a job whose
-- output goes to a terminal buffer (nvim_open_term) the user can open, and
-- to a capture the agent reads with terminal/output. Pipes, not a pty: the
-- agent reads the command's plain output (no colour codes, no \r\n).
local rpc = require('companion.rpc')

local M = {}

-- named counts the terminal buffers of this Neovim, so their names stay
-- unique when a restarted agent numbers its terminals from 1 again.
local named = 0

local Terminals = {}
Terminals.__index = Terminals

-- new returns the terminal registry of one agent connection. on_output(id)
-- runs when a terminal prints (the chat refreshes its cards); on_create(id)
-- when one starts.
function M.new(opts)
  opts = opts or {}
  return setmetatable({ list = {}, seq = 0, on_output = opts.on_output or function() end,
    on_create = opts.on_create or function() end }, Terminals)
end

-- trim_utf8_start drops UTF-8 continuation bytes at the start of s, so a
-- cut never leaves half a character.
local function trim_utf8_start(s)
  local i = 1
  while i <= #s do
    local b = s:byte(i)
    if b < 0x80 or b >= 0xC0 then
      break
    end
    i = i + 1
  end
  return s:sub(i)
end

-- append adds data to the capture, keeping the last limit bytes.
local function append(t, data)
  t.chunks[#t.chunks + 1] = data
  t.size = t.size + #data
  if t.limit and t.size > t.limit then
    local all = table.concat(t.chunks)
    all = trim_utf8_start(all:sub(#all - t.limit + 1))
    t.chunks, t.size, t.truncated = { all }, #all, true
  end
end

-- get returns the terminal named in params or raises not found.
function Terminals:get(params)
  local t = self.list[params.terminalId or '']
  if not t then
    error(rpc.error(rpc.codes.not_found, 'Unknown terminal: ' .. tostring(params.terminalId)))
  end
  return t
end

-- output_handler feeds a job's stdout or stderr to the capture and screen.
function Terminals:output_handler(t)
  return function(_, data)
    local s = rpc.jobdata(data)
    if s == '' then
      return
    end
    append(t, s)
    if vim.api.nvim_buf_is_valid(t.buf) then
      pcall(vim.api.nvim_chan_send, t.chan, (s:gsub('\r?\n', '\r\n')))
    end
    self.on_output(t.id)
  end
end

-- exit_status is the ACP shape of how the command ended.
local function exit_status(t)
  if t.exit_code == nil then
    return nil
  end
  if t.signal then
    return { exitCode = vim.NIL, signal = t.signal }
  end
  return { exitCode = t.exit_code, signal = vim.NIL }
end

-- finish records the exit and wakes terminal/wait_for_exit requests.
function Terminals:finish(t, code)
  t.exit_code = code
  -- Neovim reports death by signal N as exit code 128 + N.
  if code > 128 and t.killed then
    t.signal = t.killed
  end
  if vim.api.nvim_buf_is_valid(t.buf) then
    local note = ('\r\n[process exited %s]\r\n'):format(t.signal and ('by ' .. t.signal) or tostring(code))
    pcall(vim.api.nvim_chan_send, t.chan, note)
  end
  local waiters = t.waiters
  t.waiters = {}
  for _, req in ipairs(waiters) do
    req.reply(exit_status(t))
  end
  self.on_output(t.id)
end

-- job_env turns ACP's [{name, value}] into jobstart's env map.
local function job_env(list)
  if type(list) ~= 'table' or #list == 0 then
    return nil
  end
  local env = {}
  for _, kv in ipairs(list) do
    env[kv.name] = kv.value
  end
  return env
end

-- create implements terminal/create.
function Terminals:create(params)
  if type(params.command) ~= 'string' or params.command == '' then
    error(rpc.error(rpc.codes.invalid_params, 'command is required'))
  end
  self.seq = self.seq + 1
  local id = ('term-%d'):format(self.seq)
  local limit = params.outputByteLimit
  local t = { id = id, command = params.command, args = params.args ~= vim.NIL and params.args or {},
    chunks = {}, size = 0, truncated = false, waiters = {},
    limit = type(limit) == 'number' and limit or nil }
  t.buf = vim.api.nvim_create_buf(false, true)
  named = named + 1
  pcall(vim.api.nvim_buf_set_name, t.buf, ('companion://terminal/%d %s'):format(named, params.command))
  t.chan = vim.api.nvim_open_term(t.buf, {})
  local argv = { params.command }
  vim.list_extend(argv, t.args)
  local cwd = params.cwd ~= vim.NIL and params.cwd or nil
  local ok, job = pcall(vim.fn.jobstart, argv, {
    cwd = cwd, env = job_env(params.env),
    on_stdout = self:output_handler(t), on_stderr = self:output_handler(t),
    on_exit = function(_, code) self:finish(t, code) end,
  })
  if not ok or job <= 0 then
    vim.api.nvim_buf_delete(t.buf, { force = true })
    error(rpc.error(rpc.codes.internal_error, ('cannot run %s: %s'):format(params.command, ok and job or tostring(job))))
  end
  t.job = job
  self.list[id] = t
  self.on_create(id)
  return { terminalId = id }
end

-- output implements terminal/output.
function Terminals:output(params)
  local t = self:get(params)
  local res = { output = table.concat(t.chunks), truncated = t.truncated }
  res.exitStatus = exit_status(t) or vim.NIL
  return res
end

-- wait_for_exit implements terminal/wait_for_exit: answered at exit, or
-- with -32800 when the agent cancels the request.
function Terminals:wait_for_exit(params, req)
  local t = self:get(params)
  if t.exit_code ~= nil then
    return exit_status(t)
  end
  table.insert(t.waiters, req)
  req.on_cancel(function()
    for i, r in ipairs(t.waiters) do
      if r == req then
        table.remove(t.waiters, i)
        break
      end
    end
  end)
  return nil
end

-- kill implements terminal/kill: the id stays valid.
function Terminals:kill(params)
  local t = self:get(params)
  if t.exit_code == nil then
    t.killed = 'SIGTERM'
    vim.fn.jobstop(t.job)
  end
  return vim.empty_dict()
end

-- release implements terminal/release: kill if running, forget the id.
-- The buffer stays so the user can still read the output.
function Terminals:release(params)
  self:kill(params)
  local t = self:get(params)
  t.released = true
  self.list[t.id] = nil
  self.released = self.released or {}
  self.released[t.id] = t
  return vim.empty_dict()
end

-- find returns a terminal by id, released ones included (for display).
function Terminals:find(id)
  return self.list[id] or (self.released or {})[id]
end

-- tail returns about the last n bytes a terminal printed (released ones
-- too), without joining the whole capture.
function Terminals:tail(id, n)
  local t = self:find(id)
  if not t then
    return nil
  end
  local parts, size = {}, 0
  for i = #t.chunks, 1, -1 do
    table.insert(parts, 1, t.chunks[i])
    size = size + #t.chunks[i]
    if size >= n then
      break
    end
  end
  local s = table.concat(parts)
  return size > n and trim_utf8_start(s:sub(-n)) or s
end

-- register installs the terminal/* handlers on an acp client.
function Terminals:register(client)
  client:handle('terminal/create', function(p) return self:create(p) end)
  client:handle('terminal/output', function(p) return self:output(p) end)
  client:handle('terminal/wait_for_exit', function(p, req) return self:wait_for_exit(p, req) end)
  client:handle('terminal/kill', function(p) return self:kill(p) end)
  client:handle('terminal/release', function(p) return self:release(p) end)
end

-- shutdown stops every command still running.
function Terminals:shutdown()
  for _, t in pairs(self.list) do
    if t.exit_code == nil then
      pcall(vim.fn.jobstop, t.job)
    end
  end
end

return M
