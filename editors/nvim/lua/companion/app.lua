-- The plugin's running state: one agent process, the current session, the
-- chat view, terminals and the context tracker; the four commands act on it.
local acp = require('companion.acp')
local chat_view = require('companion.chat')
local compat = require('companion.compat')
local complete = require('companion.complete')
local config = require('companion.config')
local context = require('companion.context')
local elicit = require('companion.elicit')
local follow = require('companion.follow')
local fs = require('companion.fs')
local mentions = require('companion.mentions')
local permission = require('companion.permission')
local rpc = require('companion.rpc')
local terminal = require('companion.terminal')
local updates = require('companion.updates')

local M = {}

local App = {}
App.__index = App

-- Methods kept in modules of their own: attachments, rewinding, saved
-- sessions, and what waits for the user.
for _, name in ipairs({ 'companion.attach', 'companion.rewind', 'companion.sessions', 'companion.waits' }) do
  for k, fn in pairs(require(name).methods) do
    App[k] = fn
  end
end

-- the single instance of this Neovim (nil until first used).
local instance

-- get returns the instance, making it on first use. The agent is stopped
-- (stdin closed) when Neovim exits.
function M.get()
  if not instance then
    instance = setmetatable({ session = nil, busy = nil, waiting = {} }, App)
    local group = vim.api.nvim_create_augroup('companion_app', { clear = true })
    vim.api.nvim_create_autocmd('VimLeavePre', { group = group, callback = function()
      if instance then
        instance:stop()
      end
    end })
  end
  return instance
end

-- reset stops everything and forgets the instance (tests, :CompanionStop).
function M.reset()
  if instance then
    instance:stop()
    if instance.chat then
      instance.chat:close()
      instance.chat.transcript:forget()
      for _, b in ipairs({ instance.chat.buf, instance.chat.input, instance.chat.status_buf }) do
        pcall(vim.api.nvim_buf_delete, b, { force = true })
      end
    end
    if instance.group then
      pcall(vim.api.nvim_del_augroup_by_id, instance.group)
    end
  end
  instance = nil
end

-- notify shows a message to the user.
local function notify(msg, level)
  vim.notify('companion: ' .. msg, level or vim.log.levels.INFO)
end

-- view returns the chat, making it on first use (and again if the user
-- wiped its buffers).
function App:view()
  local c = self.chat
  if c and not (vim.api.nvim_buf_is_valid(c.buf) and vim.api.nvim_buf_is_valid(c.input)) then
    c:close()
    c.transcript:forget()
    for _, b in ipairs({ c.buf, c.input }) do
      pcall(vim.api.nvim_buf_delete, b, { force = true })
    end
    self.chat = nil
  end
  if not self.chat then
    self.chat = chat_view.new(self:actions())
  end
  return self.chat
end

-- note writes a line into the transcript.
function App:note(text)
  self:view().transcript:note(text)
end

-- note_once adds a note unless the transcript already ends with it (the
-- same start error, met again when the user retries).
function App:note_once(text)
  local t = self:view().transcript
  local last = t.blocks[#t.blocks]
  if last and last.kind == 'note' and last.text == text then
    return
  end
  t:note(text)
  t.blocks[#t.blocks].text = text
end

-- actions are what the chat's keys do.
function App:actions()
  local pickers = require('companion.pickers')
  return {
    submit = function(text) self:submit(text) end,
    cancel = function() self:cancel() end,
    mode = function() pickers.category(self, 'mode') end,
    model = function() pickers.category(self, 'model') end,
    options = function() pickers.options(self) end,
    sessions = function() pickers.sessions(self) end,
    new_session = function() self:new_session() end,
    follow = function(call) follow.tool_call(self, call) end,
    rewind = function(lnum) self:rewind(lnum) end,
    terminal_tail = function(id) return self.terminals and self.terminals:tail(id, 2000) end,
  }
end

-- refresh_terminal redraws the cards showing a terminal, at most every
-- 100 ms however fast the command prints.
function App:refresh_terminal(id)
  self.refreshing = self.refreshing or {}
  if self.refreshing[id] then
    return
  end
  self.refreshing[id] = true
  vim.defer_fn(function()
    self.refreshing[id] = nil
    if self.chat then
      self.chat.transcript:refresh_terminal(id)
    end
  end, 100)
end

-- register installs the client side of ACP on client: fs, permissions,
-- forms, terminals and the language questions (lsp.lua).
function App:register(client)
  client:handle('fs/read_text_file', fs.read)
  client:handle('fs/write_text_file', fs.write)
  client:handle('session/request_permission', function(p, req)
    return permission.handle(p, req, nil, {
      review_ready = function(review) self:review_ready(review) end,
      cancel_turn = function() self:cancel() end,
      ask = function(question, options, stop, choose, more)
        return self:ask(question, options, stop, choose, more)
      end,
    })
  end)
  client:handle('elicitation/create', elicit.handle)
  client:handle(require('companion.lsp').METHOD, require('companion.lsp').handle)
  self.terminals = terminal.new({
    on_output = function(id) self:refresh_terminal(id) end,
    on_create = function(id)
      if config.options.terminal.open then
        follow.show_terminal(self, id, false)
      end
    end,
  })
  self.terminals:register(client)
end

-- on_exit reports an agent that stopped on its own.
function App:on_exit(code, stderr)
  if self.stopping then
    return
  end
  local tail = vim.split(stderr or '', '\n', { trimempty = true })
  tail = table.concat(vim.list_slice(tail, math.max(#tail - 5, 1)), '\n')
  -- pcall: while Neovim exits the chat buffer may be gone already.
  if self.chat then
    pcall(self.chat.transcript.progress, self.chat.transcript, nil)
  end
  pcall(self.note, self, ('The agent exited (code %d).%s'):format(code, tail ~= '' and ('\n' .. tail) or ''))
  self.client, self.session, self.busy = nil, nil, nil
  self:render_status()
end

-- start_client spawns and initializes the agent; cb(err).
function App:start_client(cb)
  local o = config.options
  local client = acp.new({
    cmd = config.command(), cwd = vim.fn.getcwd(), env = o.env, trace = o.trace,
    log = function(level, msg)
      if level == 'error' then notify(msg, vim.log.levels.ERROR) end
    end,
    on_update = function(sid, u) self:on_update(sid, u) end,
    on_exit = function(code, stderr) self:on_exit(code, stderr) end,
  })
  self:register(client)
  self.client, self.stopping = client, false
  client:start(function(err)
    if err then
      self.client = nil
      cb(err)
      return
    end
    cb(nil)
  end)
end

-- ensure_client runs cb(err) once the agent runs (starting it when
-- needed); concurrent callers wait for the same start.
function App:ensure_client(cb)
  if self.client and self.client.info then
    cb(nil)
    return
  end
  table.insert(self.waiting, cb)
  if #self.waiting > 1 then
    return
  end
  self:start_client(function(err)
    local waiting = self.waiting
    self.waiting = {}
    if err then
      local msg = tostring(err.message or err)
      local spawn = msg:find('not an executable', 1, true) or msg:find('^cannot start ')
      self:note_once(('Could not start companion: %s.%s'):format(msg, spawn
        and ' Set `cmd` in setup() (see `:checkhealth companion`); a prompt you send stays in the input.' or ''))
    end
    for _, w in ipairs(waiting) do
      w(err)
    end
  end)
end

-- ensure runs cb(err) once the agent runs with a session.
function App:ensure(cb)
  self:ensure_client(function(err)
    if err or self.session then
      cb(err)
      return
    end
    if self.creating then
      table.insert(self.creating, cb)
      return
    end
    self.creating = { cb }
    self:resume_or_create(function(serr)
      local waiting = self.creating
      self.creating = nil
      if serr then
        self:note('Could not start a session: ' .. tostring(serr.message or serr))
      end
      for _, w in ipairs(waiting) do
        w(serr)
      end
    end)
  end)
end

-- auth_method returns the agent's first authentication method.
function App:auth_method()
  local methods = self.client.info and self.client.info.authMethods or {}
  return methods[1]
end

-- create_session runs session/new; on "authentication required" it asks
-- the agent to re-read its credentials once and tries again.
function App:create_session(cb, retried)
  local cwd = vim.fn.getcwd()
  self.client:new_session(cwd, function(err, res)
    if err and err.code == rpc.codes.auth_required and not retried and self:auth_method() then
      self.client:authenticate(self:auth_method().id, function(aerr)
        if aerr then
          local how = self:auth_method().description
          cb({ message = ('authentication required. %s Then run :Companion again.'):format(
            type(how) == 'string' and how or err.message) })
        else
          self:create_session(cb, true)
        end
      end)
      return
    end
    if err then
      cb(err)
      return
    end
    self:adopt(res.sessionId, res, cwd)
    -- The mode is set before anything else is sent: the agent handles
    -- requests concurrently, so a prompt must not overtake it.
    self:apply_approval_mode(function()
      cb(nil)
    end)
  end)
end

-- adopt makes sid the current session with its modes and options.
function App:adopt(sid, res, cwd)
  self.session = { id = sid, cwd = cwd, options = compat.val(res.configOptions) or {}, modes = compat.val(res.modes),
    usage = nil, title = nil }
  if self.tracker then
    self.tracker:reset()
    self.tracker:schedule()
  end
  self:render_status()
end

-- apply_approval_mode selects the configured approval mode, then runs
-- done.
function App:apply_approval_mode(done)
  local want = config.options.approval_mode
  local opt = want and updates.option_of(self.session.options, 'mode')
  if opt and opt.currentValue ~= want then
    self:set_option(opt.id, want, done)
  else
    done()
  end
end

-- set_option changes a config option and takes the agent's new list;
-- done (optional) runs after the answer.
function App:set_option(id, value, done)
  local sid = self.session.id
  self.client:set_config_option(sid, id, value, function(err, res)
    if err then
      notify(('cannot set %s: %s'):format(id, err.message), vim.log.levels.ERROR)
    elseif self.session and self.session.id == sid then
      self.session.options = res.configOptions or self.session.options
      self:render_status()
    end
    if done then
      done()
    end
  end)
end

-- open shows the chat and starts the agent when needed.
function App:open()
  self:view():open()
  self:track_context()
  self:ensure(function() end)
end

-- toggle shows or hides the chat.
function App:toggle()
  if self.chat and self.chat:is_open() then
    self.chat:close()
  else
    self:open()
  end
end

-- track_context starts the IDE context tracker once the agent wants it.
function App:track_context()
  if self.tracker or not config.options.context.enabled then
    return
  end
  self.group = vim.api.nvim_create_augroup('companion_context', { clear = true })
  self.tracker = context.new({
    debounce_ms = config.options.context.debounce_ms,
    session = function()
      if self.client and self.session and self.client:supports('ide_context') then
        return self.session.id
      end
    end,
    send = function(params)
      self.client:notify('_companion/ide/contextUpdate', params)
    end,
  })
  self.tracker:observe()
  self.tracker:attach(self.group)
end

-- submit sends a prompt (starting the agent first if needed).
function App:submit(text)
  if self:refuse_busy() then
    return
  end
  self:view()
  self.busy = 'starting'
  self:ensure(function(err)
    if err then
      self.busy = nil
      self.chat:restore_input(text) -- not sent: the user's text is not lost
      return
    end
    self:send_prompt(text)
  end)
end

-- send_prompt renders the user's text and runs the turn.
function App:send_prompt(text)
  local sid = self.session.id
  -- Each prompt is a message of its own (rewind counts them), even right
  -- after one that got no answer.
  local last = self.chat.transcript.blocks[#self.chat.transcript.blocks]
  if last and last.kind == 'user' then
    last.done = true
  end
  self.chat.transcript:append_text('user', text)
  if self.tracker then
    self.tracker:flush()
  end
  local blocks = mentions.blocks(text, self.session.cwd, self.client:supports('embedded'), self.client:supports('image'))
  vim.list_extend(blocks, self:take_attachments())
  self.turn_changes = require('companion.changes').new()
  self.busy = self.client:prompt(sid, blocks, function(err, res)
    self.busy = nil
    self:settle_changes()
    self.chat.transcript:progress(nil)
    self.chat.transcript:finish_thought()
    if err then
      self:note('Error: ' .. tostring(err.message))
    else
      self.last_stop = res.stopReason
      if res.stopReason ~= 'end_turn' then
        self:note(('(turn ended: %s)'):format(res.stopReason))
      end
      if res.stopReason == 'cancelled' then
        self.chat.transcript:cancel_tools()
      end
    end
    self:render_status()
  end)
  local cancel = config.options.keymaps.cancel
  self.chat.transcript:progress('⋯ working…' .. (cancel and (' (' .. cancel .. ' cancels)') or ''))
  self:render_status()
end

-- cancel stops the running turn: session/cancel, pending permissions
-- answered "cancelled", unfinished tool calls marked cancelled.
function App:cancel()
  if not (self.busy and self.session and self.client) then
    return false
  end
  local sid = self.session.id
  self.client:cancel(sid)
  permission.cancel_session(sid)
  return true
end

-- refuse_busy tells the user a turn is running; true when it is.
function App:refuse_busy()
  if self.busy then
    self:note('(A turn is running: wait for it or cancel it first.)')
    return true
  end
  return false
end

-- new_session replaces the current session with a fresh one.
function App:new_session()
  if self:refuse_busy() then
    return
  end
  if not self.client then
    self:open()
    return
  end
  self.session = nil
  self:view().transcript:clear()
  self:ensure(function() end)
end

-- on_update renders a session/update of the current session.
function App:on_update(sid, update)
  if not self.session or sid ~= self.session.id then
    return
  end
  updates.apply(self, update)
end

-- render_status shows session, mode, model and usage above the chat.
function App:render_status()
  if self.chat then
    self.chat:set_status(updates.status_line(self, self.chat:status_width()))
  end
end

-- stop ends the agent process (the chat stays).
function App:stop()
  self.stopping = true
  if self.terminals then
    self.terminals:shutdown()
  end
  if self.client then
    self.client:stop()
  end
  if self.tracker then
    self.tracker:close()
    self.tracker = nil
  end
  self.client, self.session, self.busy, self.waiting, self.creating = nil, nil, nil, {}, nil
  complete.set_commands({})
  self:render_status()
end

return M
