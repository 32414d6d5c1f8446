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
-- forms and terminals.
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

-- review_ready tells the user an edit waits for review, without taking
-- the focus from where they type: a line in the chat and a short message.
-- :CompanionReview opens it.
function App:review_ready(review)
  local name = vim.fn.fnamemodify(review.path or '', ':~:.')
  local keys = config.options.diff or {}
  self:note(('✎ Edit of %s waits for your review: :CompanionReview opens it (%s allow, %s reject).'):format(
    name, keys.accept or ':w', keys.reject or 'close the tab'))
  self:render_status()
  self:echo('companion: edit of ' .. name .. ' to review (:CompanionReview)')
end

-- echo shows msg on one line that fits: a longer message would wait for
-- Enter, taking the user's keys.
function App:echo(msg)
  local room = math.max(vim.v.echospace or (vim.o.columns - 12), 10)
  if vim.fn.strdisplaywidth(msg) > room then
    msg = vim.fn.strcharpart(msg, 0, room - 1) .. '…'
  end
  vim.api.nvim_echo({ { msg, 'WarningMsg' } }, false, {})
end

-- ask puts a permission question in the chat (see ask.lua) without
-- taking the focus; a short message says where to answer. Returns the
-- question's close(text).
function App:ask(question, options, stop, choose, more)
  local chat = self:view()
  local close = require('companion.ask').open(chat.transcript, chat.buf, question, options, stop, choose, more)
  self:render_status()
  self:echo('companion: permission asked in the chat (y/a/n/c there)')
  return function(text)
    close(text)
    self:render_status()
  end
end

-- review opens the oldest edit waiting for review, or goes to its tab
-- (:CompanionReview); false when none waits.
function App:review()
  local list = require('companion.diff').pending()
  if #list == 0 then
    notify('no edit waits for review')
    return false
  end
  list[1]:show()
  return true
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

-- resume_or_create brings back the folder's last session when the chat
-- starts (once per Neovim, when the agent lists and loads sessions and
-- the option resume is on), else makes a new one; cb(err).
function App:resume_or_create(cb)
  local c = self.client
  if self.resume_tried or config.options.resume == false or not (c:supports('list') and c:supports('load')) then
    self:create_session(cb)
    return
  end
  self.resume_tried = true
  local cwd = vim.fn.getcwd()
  -- One page is enough: the agent lists the newest first.
  c:request('session/list', { cwd = cwd }, function(err, res)
    local last = not err and type(res) == 'table' and type(res.sessions) == 'table' and res.sessions[1]
    if type(last) ~= 'table' or type(last.sessionId) ~= 'string' then
      self:create_session(cb)
      return
    end
    self:replay(last.sessionId, cwd, function(lerr)
      if lerr then
        self.session = nil
        self:create_session(cb)
        return
      end
      self:note(('(Resumed the last conversation of this folder: %s. %s starts a new one.)'):format(
        compat.val(last.title) or 'untitled', config.options.keymaps.new_session or ':lua require("companion").new_session()'))
      cb(nil)
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

-- attach adds an image file to the next prompt; it tells the user in the
-- chat and returns true when the file can go.
function App:attach(path)
  path = vim.fn.fnamemodify(vim.fn.expand(path or ''), ':p')
  local block, err = require('companion.attach').image(path)
  if block and self.client and not self.client:supports('image') then
    block, err = nil, 'the agent does not take images'
  end
  if not block then
    self:note(('(Not attached: %s.)'):format(err))
    return false
  end
  self.attachments = self.attachments or {}
  table.insert(self.attachments, { path = path, block = block })
  self:note(('(Attached %s: it goes with your next prompt.)'):format(vim.fn.fnamemodify(path, ':~:.')))
  return true
end

-- take_attachments returns the image blocks attached for this prompt and
-- forgets them; an agent that does not take images gets none (the user
-- is told).
function App:take_attachments()
  local list = self.attachments or {}
  self.attachments = nil
  if #list == 0 then
    return {}
  end
  if not self.client:supports('image') then
    self:note('(The agent does not take images: the attached files were not sent.)')
    return {}
  end
  local blocks = {}
  for _, a in ipairs(list) do
    blocks[#blocks + 1] = a.block
    self.chat.transcript:append_text('user', '\n[image: ' .. vim.fn.fnamemodify(a.path, ':t') .. ']')
  end
  return blocks
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

-- track_change records a completed edit of this turn (tool call id).
function App:track_change(id)
  local entry = self.turn_changes and self.chat and self.chat.transcript.tools[id]
  if entry and entry.call.status == 'completed' then
    self.turn_changes:record(entry.call)
  end
end

-- settle_changes ends the turn's record: when the turn changed several
-- files, the chat names them and :CompanionChanges reviews them as one
-- change; the status line says so until the user has looked.
function App:settle_changes()
  local c = self.turn_changes
  self.turn_changes = nil
  if not c or c:count() < 2 then
    return
  end
  self.changed = c
  self:note(('Changed this turn: %s. :CompanionChanges reviews them (keep all, revert all or per file).'):format(c:summary()))
end

-- changes opens the list of the files the last turn changed
-- (:CompanionChanges); false when there is none.
function App:changes()
  if not self.changed then
    notify('no turn changed several files')
    return false
  end
  self.changed.looked = true
  self.changed:show()
  self:render_status()
  return true
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

-- rewind_lnum is the chat line a rewind acts on: lnum, else the cursor's
-- line when the cursor is in the chat buffer.
function App:rewind_lnum(lnum)
  if lnum then
    return lnum
  end
  local c = self.chat
  if c and vim.api.nvim_get_current_buf() == c.buf then
    return vim.api.nvim_win_get_cursor(0)[1]
  end
  return nil
end

-- rewind forks the session before the user message at chat line lnum
-- (default: the cursor's), once the user confirms: the agent restores the
-- files, the fork is loaded (its shorter history replayed), the message
-- goes back to the prompt buffer and a note names the restored files. The
-- original session stays in :CompanionSessions.
function App:rewind(lnum)
  local c = self.chat
  if not (self.client and self.session and c) then
    notify('no conversation to rewind', vim.log.levels.WARN)
    return
  end
  if not self.client:supports('rewind') then
    notify('the agent cannot rewind a conversation', vim.log.levels.WARN)
    return
  end
  if self:refuse_busy() then
    return
  end
  if self.session.loading then
    notify('wait for the session to load', vim.log.levels.WARN)
    return
  end
  lnum = self:rewind_lnum(lnum)
  local index = lnum and c.transcript:user_index_at(lnum)
  if not index then
    notify('put the cursor on one of your messages in the chat to rewind to it', vim.log.levels.WARN)
    return
  end
  local sid = self.session.id
  local yes = 'Rewind: restore the files to before this message'
  vim.ui.select({ yes, 'Cancel' }, {
    prompt = 'Rewind to before this message? Files the agent changed since then are restored.',
  }, function(choice)
    if choice ~= yes then
      return
    end
    if self:refuse_busy() or not (self.session and self.session.id == sid) then
      return
    end
    self:run_rewind(sid, index)
  end)
end

-- run_rewind asks the agent for the fork and switches the chat to it.
function App:run_rewind(sid, index)
  self.busy = 'rewinding'
  self.client:rewind(sid, index, function(err, res)
    self.busy = nil
    if err or type(res) ~= 'table' or type(res.sessionId) ~= 'string' then
      self:note('Could not rewind: ' .. tostring(err and err.message or 'the agent answered without a session'))
      return
    end
    self:load(res.sessionId, function(lerr)
      if lerr then
        return
      end
      local draft = self.chat:set_input(M.prompt_text(res.prompt))
      self:note(M.restored_note(res.restored))
      if draft then
        vim.fn.setreg('"', draft)
        self:note('(What you had typed in the prompt is in the unnamed register: p puts it back.)')
      end
      M.reread(res.restored)
    end)
  end)
end

-- reread reloads the loaded buffers of files a rewind restored on disk
-- (:checktime; 'autoread' reloads a buffer without changes, else Neovim
-- asks as for any file changed outside).
function M.reread(paths)
  for _, p in ipairs(type(paths) == 'table' and paths or {}) do
    local b = type(p) == 'string' and vim.fn.bufnr(p) or -1
    if b > 0 and vim.api.nvim_buf_is_loaded(b) then
      pcall(vim.cmd, 'checktime ' .. b)
    end
  end
end

-- prompt_text joins the text blocks of a rewound prompt (mentions are
-- written in its text as @path).
function M.prompt_text(blocks)
  local parts = {}
  for _, b in ipairs(type(blocks) == 'table' and blocks or {}) do
    if type(b) == 'table' and b.type == 'text' and type(b.text) == 'string' then
      parts[#parts + 1] = b.text
    end
  end
  return table.concat(parts)
end

-- restored_note tells which files a rewind put back.
function M.restored_note(restored)
  local names = {}
  for _, p in ipairs(type(restored) == 'table' and restored or {}) do
    names[#names + 1] = vim.fn.fnamemodify(p, ':~:.')
  end
  if #names == 0 then
    return '(Rewound: no files needed restoring. Your message is back in the prompt.)'
  end
  return ('(Rewound: restored %s to before that message. Your message is back in the prompt.)'):format(table.concat(names, ', '))
end

-- load replays session sid into a cleared transcript.
function App:load(sid, cb)
  if self:refuse_busy() then
    return
  end
  self:ensure_client(function(eerr)
    if eerr then
      if cb then cb(eerr) end
      return
    end
    self:replay(sid, vim.fn.getcwd(), function(err)
      if not err then
        self:note('(session loaded)')
      end
      if cb then cb(err) end
    end)
  end)
end

-- replay loads session sid into a cleared transcript; cb(err).
function App:replay(sid, cwd, cb)
  self:view().transcript:clear()
  self.session = { id = sid, cwd = cwd, options = {}, loading = true }
  self.client:load_session(sid, cwd, function(err, res)
    if err then
      self:note('Could not load the session: ' .. tostring(err.message))
    else
      self:adopt(sid, res or {}, cwd)
    end
    cb(err)
  end)
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
