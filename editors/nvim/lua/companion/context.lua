-- IDE context for the agent: `_companion/ide/contextUpdate` (DESIGN.md,
-- "Extension: IDE context over ACP") with the listed file buffers, the
-- active one with its cursor and selection, vim.diagnostic and the working
-- directory as workspace folder. Sent debounced after moves and edits, and
-- only when it changed.
local compat = require('companion.compat')
local mentions = require('companion.mentions')

local M = {}

-- Limits the agent applies too; keeping to them saves bytes on the wire.
M.MAX_FILES = 10
M.MAX_SELECTION = 16 * 1024
M.MAX_DIAGNOSTICS = 200

-- is_file_buffer tells whether buf is a listed buffer editing a file.
local function is_file_buffer(buf)
  return vim.api.nvim_buf_is_valid(buf) and vim.bo[buf].buflisted and vim.bo[buf].buftype == ''
    and vim.api.nvim_buf_get_name(buf) ~= ''
end

-- position is an LSP position of a 0-based row and byte column.
local function position(buf, row, col)
  local line = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ''
  return { line = row, character = compat.utf16_col(line, col) }
end

-- selection returns the range and text of the visual selection of the
-- current window, when in a visual mode.
function M.selection()
  local mode = vim.fn.mode()
  if not (mode == 'v' or mode == 'V' or mode == '\22') then
    return nil
  end
  local buf = vim.api.nvim_get_current_buf()
  local a, b = vim.fn.getpos('v'), vim.fn.getpos('.')
  if a[2] > b[2] or (a[2] == b[2] and a[3] > b[3]) then
    a, b = b, a
  end
  local srow, scol, erow, ecol = a[2] - 1, a[3] - 1, b[2] - 1, b[3]
  local lines = vim.api.nvim_buf_get_lines(buf, srow, erow + 1, false)
  if mode == 'V' then
    scol, ecol = 0, #(lines[#lines] or '')
  end
  ecol = math.min(ecol, #(lines[#lines] or ''))
  lines[#lines] = (lines[#lines] or ''):sub(1, ecol)
  lines[1] = (lines[1] or ''):sub(scol + 1)
  local text = table.concat(lines, '\n'):sub(1, M.MAX_SELECTION)
  return { buf = buf, range = { start = position(buf, srow, scol), ['end'] = position(buf, erow, ecol) }, text = text }
end

-- file_entry describes one open buffer; active adds cursor and selection.
local function file_entry(buf, win, sel, active)
  local info = vim.fn.getbufinfo(buf)[1] or {}
  local entry = { uri = mentions.uri(vim.api.nvim_buf_get_name(buf)), timestamp = (info.lastused or 0) * 1000 }
  if active then
    entry.isActive = true
    if win and vim.api.nvim_win_is_valid(win) then
      local cur = vim.api.nvim_win_get_cursor(win)
      entry.cursor = position(buf, cur[1] - 1, cur[2])
    end
    if sel and sel.buf == buf then
      entry.selection, entry.selectedText = sel.range, sel.text
    end
  end
  return entry
end

-- open_files lists the listed file buffers, most recently used first, the
-- active one (the buffer of the last file window) marked.
local function open_files(state)
  local bufs = vim.tbl_filter(is_file_buffer, vim.api.nvim_list_bufs())
  local used = {}
  for _, b in ipairs(bufs) do
    used[b] = (vim.fn.getbufinfo(b)[1] or {}).lastused or 0
  end
  table.sort(bufs, function(x, y)
    if x == state.active_buf then return true end
    if y == state.active_buf then return false end
    return used[x] > used[y]
  end)
  local files = {}
  for i = 1, math.min(#bufs, M.MAX_FILES) do
    local b = bufs[i]
    files[i] = file_entry(b, state.active_win, state.selection, b == state.active_buf)
  end
  return files
end

-- diagnostics returns vim.diagnostic's items of the listed buffers, LSP
-- shaped (severity 1 error … 4 hint).
local function diagnostics()
  if not vim.diagnostic then
    return {}
  end
  local out, count = {}, 0
  for _, buf in ipairs(vim.tbl_filter(is_file_buffer, vim.api.nvim_list_bufs())) do
    local items = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if count >= M.MAX_DIAGNOSTICS then
        break
      end
      count = count + 1
      items[#items + 1] = {
        range = { start = position(buf, d.lnum, d.col), ['end'] = position(buf, d.end_lnum or d.lnum, d.end_col or d.col) },
        severity = d.severity, message = d.message, source = d.source, code = d.code,
      }
    end
    if #items > 0 then
      out[#out + 1] = { uri = mentions.uri(vim.api.nvim_buf_get_name(buf)), diagnostics = items }
    end
  end
  return out
end

-- collect builds the notification params for session_id from the editor
-- state right now.
function M.collect(state, session_id)
  local cwd = vim.fn.getcwd()
  return {
    sessionId = session_id,
    workspaceFolders = { { uri = mentions.uri(cwd), name = vim.fn.fnamemodify(cwd, ':t') } },
    openFiles = open_files(state),
    diagnostics = diagnostics(),
    -- Neovim's trust database (0.9+): false when it denies the folder.
    isTrusted = require('companion.trust').is_trusted(cwd),
  }
end

local Tracker = {}
Tracker.__index = Tracker

-- new makes a tracker. send(params) delivers a context; session() returns
-- the session id to send for (nil: nothing to send yet).
function M.new(opts)
  return setmetatable({ send = opts.send, session = opts.session, delay = opts.debounce_ms or 300, last = nil,
    active_buf = nil, active_win = nil, selection = nil }, Tracker)
end

-- observe notes what the current window shows, when it is a file.
function Tracker:observe()
  local buf = vim.api.nvim_get_current_buf()
  if not is_file_buffer(buf) then
    return false
  end
  self.active_buf, self.active_win = buf, vim.api.nvim_get_current_win()
  local sel = M.selection()
  if sel then
    self.selection = sel
  elseif vim.fn.mode() == 'n' and self.selection and self.selection.moved_after then
    self.selection = nil
  elseif self.selection then
    -- Kept for one more move after visual mode ends, so ':Companion' run
    -- from a selection still sends it.
    self.selection.moved_after = true
  end
  return true
end

-- flush sends the context now if it changed since the last send.
function Tracker:flush()
  if self.timer then
    self.timer:stop()
  end
  local sid = self.session()
  if not sid then
    return false
  end
  local params = M.collect(self, sid)
  local encoded = vim.json.encode(params)
  if encoded == self.last then
    return false
  end
  self.last = encoded
  self.send(params)
  return true
end

-- schedule sends after the debounce delay, restarting it on each call.
function Tracker:schedule()
  if not self.timer then
    self.timer = compat.uv.new_timer()
  end
  self.timer:stop()
  self.timer:start(self.delay, 0, vim.schedule_wrap(function()
    self:flush()
  end))
end

-- global_events change the context whatever window is current.
local global_events = { DiagnosticChanged = true, BufDelete = true, DirChanged = true }

-- on_event is the autocmd callback: moves and edits in file windows, and
-- changes that concern every buffer.
function Tracker:on_event(event)
  if self:observe() or global_events[event] then
    self:schedule()
  end
end

-- attach installs the autocmds in group.
function Tracker:attach(group)
  local events = { 'BufEnter', 'CursorMoved', 'CursorMovedI', 'TextChanged', 'TextChangedI', 'BufDelete', 'DirChanged' }
  if vim.fn.exists('##ModeChanged') == 1 then
    table.insert(events, 'ModeChanged')
  end
  if vim.fn.exists('##DiagnosticChanged') == 1 then
    table.insert(events, 'DiagnosticChanged')
  end
  vim.api.nvim_create_autocmd(events, { group = group, callback = function(ev) self:on_event(ev.event) end })
end

-- reset forgets what was sent (a new session needs the full context).
function Tracker:reset()
  self.last = nil
end

-- close stops the timer.
function Tracker:close()
  if self.timer then
    self.timer:stop()
    self.timer:close()
    self.timer = nil
  end
end

return M
