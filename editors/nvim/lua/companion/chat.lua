-- The chat view: a transcript window (markdown, read-only) above a prompt
-- window, laid out as a column split or as floats. The view knows buffers,
-- windows and keys; app.lua decides what they do.
local config = require('companion.config')
local compat = require('companion.compat')
local transcript = require('companion.transcript')

local M = {}

vim.cmd('highlight default link CompanionToolFailed ErrorMsg')
vim.cmd('highlight default link CompanionToolDeclined Comment')
vim.cmd('highlight default link CompanionProgress Comment')

local Chat = {}
Chat.__index = Chat

-- verbatim are the transcript's syntax rules (after markdown's) for what
-- must show exactly as it is, never concealed: tool call cards (the
-- commands, paths and diffs the agent runs) up to the blank line after
-- them, the user's own messages up to the next block's header, and the
-- notes that name files or carry errors.
local verbatim = {
  [=[syntax region companionCard start=/^[○◐✓✗⊘•?] \[/ end=/^$/ keepend contains=NONE containedin=ALL]=],
  [=[syntax region companionUser start=/\%(^## You\n\)\@<=/ end=/\n\ze\n\%(## companion$\|> Thinking…$\|> Thought$\|[○◐✓✗⊘•] \[\|### Plan$\)/ keepend contains=NONE containedin=ALL]=],
  [=[syntax region companionNote start=/\%(^\n\)\@<=\%(✎ \|Changed this turn: \|(Rewound: \|(Resumed \|(Attached \|Error: \|Could not \)/ end=/^$/ keepend contains=NONE containedin=ALL]=],
  'syntax sync fromstart',
}

-- add_verbatim installs the verbatim rules in buf's syntax, now and each
-- time its syntax is loaded again.
local function add_verbatim(buf)
  local function apply()
    vim.api.nvim_buf_call(buf, function()
      for _, cmd in ipairs(verbatim) do
        pcall(vim.cmd, cmd)
      end
    end)
  end
  apply()
  vim.api.nvim_create_autocmd('Syntax', { buffer = buf, callback = apply })
end

-- scratch makes a hidden, unlisted buffer named name.
local function scratch(name, filetype)
  local buf = vim.api.nvim_create_buf(false, true)
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = filetype
  return buf
end

-- new makes the chat buffers. actions: submit(text), cancel(), mode(),
-- model(), options(), sessions(), new_session(), follow(call),
-- terminal_tail(id).
function M.new(actions)
  local self = setmetatable({ actions = actions }, Chat)
  self.buf = scratch('companion://chat', 'markdown')
  vim.bo[self.buf].modifiable = false
  add_verbatim(self.buf)
  self.input = scratch('companion://prompt', 'markdown')
  vim.bo[self.input].omnifunc = "v:lua.require'companion.complete'.omnifunc"
  vim.bo[self.input].completefunc = "v:lua.require'companion.complete'.omnifunc"
  self.transcript = transcript.new(self.buf, {
    terminal_tail = actions.terminal_tail,
    on_change = function() self:follow_tail() end,
  })
  self:map_keys()
  self.status = ''
  return self
end

-- map sets a buffer-local key in the given modes of both buffers.
local function map(bufs, modes, lhs, fn, desc)
  if not lhs or lhs == '' then
    return
  end
  for _, buf in ipairs(bufs) do
    vim.keymap.set(modes, lhs, fn, { buffer = buf, nowait = true, silent = true, desc = 'companion: ' .. desc })
  end
end

-- map_keys installs the configured keymaps.
function Chat:map_keys()
  local k, a = config.options.keymaps, self.actions
  local both = { self.buf, self.input }
  map({ self.input }, 'n', k.submit_normal, function() self:submit() end, 'send the prompt')
  map({ self.input }, 'i', k.submit_insert, function() self:submit() end, 'send the prompt')
  map(both, { 'n', 'i' }, k.cancel, a.cancel, 'cancel the turn')
  map(both, 'n', k.close, function() self:close() end, 'close the chat')
  map(both, 'n', k.mode, a.mode, 'pick the mode')
  map(both, 'n', k.model, a.model, 'pick the model')
  map(both, 'n', k.options, a.options, 'pick a session option')
  map(both, 'n', k.sessions, a.sessions, 'load a session')
  map(both, 'n', k.new_session, a.new_session, 'start a new session')
  map({ self.buf }, 'n', k.follow, function()
    local call = self.transcript:tool_at(vim.api.nvim_win_get_cursor(0)[1])
    if call then
      a.follow(call)
    end
  end, 'open what the tool call under the cursor touched')
  map({ self.buf }, 'n', k.rewind, function()
    a.rewind(vim.api.nvim_win_get_cursor(0)[1])
  end, 'rewind to before the user message under the cursor')
end

-- submit sends the prompt buffer's text and empties it.
function Chat:submit()
  local lines = vim.api.nvim_buf_get_lines(self.input, 0, -1, false)
  local text = vim.trim(table.concat(lines, '\n'))
  if text == '' then
    return
  end
  vim.api.nvim_buf_set_lines(self.input, 0, -1, false, {})
  self.actions.submit(text)
end

-- restore_input puts text that could not be sent back in the prompt buffer
-- (unless the user typed something new there meanwhile).
function Chat:restore_input(text)
  if not vim.api.nvim_buf_is_valid(self.input) then
    return
  end
  local now = vim.api.nvim_buf_get_lines(self.input, 0, -1, false)
  if vim.trim(table.concat(now, '\n')) ~= '' then
    return
  end
  vim.api.nvim_buf_set_lines(self.input, 0, -1, false, vim.split(text, '\n', { plain = true }))
end

-- set_input replaces the prompt buffer's text with text (a rewound
-- message: one prompt, never stacked on an earlier one). It returns what
-- the user had typed there themselves (not text an earlier set_input put
-- there), so it is not lost; nil when there was none.
function Chat:set_input(text)
  if not vim.api.nvim_buf_is_valid(self.input) then
    return nil
  end
  local now = vim.trim(table.concat(vim.api.nvim_buf_get_lines(self.input, 0, -1, false), '\n'))
  local draft = (now ~= '' and now ~= self.given) and now or nil
  vim.api.nvim_buf_set_lines(self.input, 0, -1, false, vim.split(text, '\n', { plain = true }))
  self.given = vim.trim(text)
  return draft
end

-- add_input appends text to what the prompt buffer holds (a blank line
-- between), for the user to go on writing after it.
function Chat:add_input(text)
  local now = vim.api.nvim_buf_get_lines(self.input, 0, -1, false)
  local lines = vim.split(text, '\n', { plain = true })
  if vim.trim(table.concat(now, '\n')) ~= '' then
    table.insert(lines, 1, '')
    vim.api.nvim_buf_set_lines(self.input, #now, #now, false, lines)
  else
    vim.api.nvim_buf_set_lines(self.input, 0, -1, false, lines)
  end
  self.added = true
end

-- is_open tells whether the transcript window is showing.
function Chat:is_open()
  return self.win ~= nil and vim.api.nvim_win_is_valid(self.win)
end

-- window_options sets what both chat windows share.
local function window_options(win)
  vim.wo[win].wrap = true
  vim.wo[win].linebreak = true
  vim.wo[win].number = false
  vim.wo[win].relativenumber = false
  vim.wo[win].signcolumn = 'no'
end

-- transcript_options folds thoughts and keeps the view read-only.
function Chat:transcript_options()
  local win = self.win
  window_options(win)
  vim.wo[win].foldmethod = 'expr'
  vim.wo[win].foldexpr = "v:lua.require'companion.transcript'.foldexpr(v:lnum)"
  vim.wo[win].foldlevel = 0
  vim.wo[win].foldenable = true
  -- Markdown reads as text: the markdown syntax (and tree-sitter, where the
  -- user highlights markdown with it) conceals **, _ and fence marks. The
  -- transcript is read-only, so the cursor line is concealed too.
  if vim.fn.has('conceal') == 1 then
    vim.wo[win].conceallevel = 2
    vim.wo[win].concealcursor = 'nc'
  end
  -- Card status: a failure stands out, the user's own decision does not.
  vim.api.nvim_win_call(win, function()
    for _, id in ipairs(self.match_ids or {}) do
      pcall(vim.fn.matchdelete, id)
    end
    self.match_ids = {
      vim.fn.matchadd('CompanionToolFailed', [=[\v^✗ \[[^]]+ · failed\]]=]),
      vim.fn.matchadd('CompanionToolDeclined', [=[\v^⊘ \[[^]]+ · (rejected|cancelled|blocked)\]]=]),
      vim.fn.matchadd('CompanionProgress', [=[\v^⋯ working….*$]=]),
    }
  end)
  window_options(self.input_win)
  vim.wo[self.input_win].winfixheight = true
end

-- open_split makes a column at the side with the prompt below.
function Chat:open_split()
  local o = config.options.split
  local side = o.position == 'left' and 'topleft' or 'botright'
  vim.cmd(('%s vertical %dsplit'):format(side, o.width))
  self.win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(self.win, self.buf)
  vim.cmd(('belowright %dsplit'):format(o.input_height))
  self.input_win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(self.input_win, self.input)
end

-- size turns a fraction of the screen (or a count) into cells.
local function size(v, total)
  if v <= 1 then
    return math.floor(total * v)
  end
  return math.min(v, total)
end

-- open_float makes stacked floats in the middle of the screen: the
-- transcript, a status line (only without 'winbar', which floats lack
-- before 0.8) and the prompt.
function Chat:open_float()
  local o = config.options.float
  local cols, rows = vim.o.columns, vim.o.lines - vim.o.cmdheight - 1
  local w, h = size(o.width, cols), size(o.height, rows)
  local bar = compat.has_winbar() and 0 or 1
  local edge = (o.border and o.border ~= 'none') and 2 or 0
  local ih = math.max(math.min(o.input_height, h - 2 * edge - bar - 3), 1)
  local th = math.max(h - ih - 2 * edge - bar, 1)
  local row, col = math.floor((rows - h) / 2), math.floor((cols - w) / 2)
  local base = { relative = 'editor', width = w, col = col, style = 'minimal', border = o.border }
  self.win = vim.api.nvim_open_win(self.buf, false, vim.tbl_extend('force', base, { row = row, height = th }))
  if bar == 1 then
    self.status_buf = self.status_buf or scratch('companion://status', '')
    self.status_win = vim.api.nvim_open_win(self.status_buf, false, { relative = 'editor', width = w + edge,
      col = col, row = row + th + edge, height = 1, style = 'minimal', focusable = false })
  end
  self.input_win = vim.api.nvim_open_win(self.input, true,
    vim.tbl_extend('force', base, { row = row + th + edge + bar, height = ih }))
end

-- open shows the chat (if hidden) and focuses the prompt.
function Chat:open()
  if not self:is_open() then
    -- A prompt window left alone (the transcript was closed with :q).
    if self.input_win and vim.api.nvim_win_is_valid(self.input_win) and #vim.api.nvim_list_wins() > 1 then
      vim.api.nvim_win_close(self.input_win, true)
    end
    if config.options.layout == 'float' then
      self:open_float()
    else
      self:open_split()
    end
    self:transcript_options()
    self:render_status()
  end
  if self.input_win and vim.api.nvim_win_is_valid(self.input_win) then
    vim.api.nvim_set_current_win(self.input_win)
    if self.added then -- after a quote: the cursor goes below it
      self.added = nil
      pcall(vim.api.nvim_win_set_cursor, self.input_win, { vim.api.nvim_buf_line_count(self.input), 0 })
    end
  end
  self:follow_tail()
end

-- close hides both windows; the buffers (and the session) stay.
function Chat:close()
  -- Not ipairs: status_win is nil in the split layout, and ipairs would
  -- stop there, leaving the transcript window open.
  for _, win in pairs({ self.input_win, self.status_win, self.win }) do
    if vim.api.nvim_win_is_valid(win) and #vim.api.nvim_list_wins() > 1 then
      vim.api.nvim_win_close(win, true)
    end
  end
  self.win, self.input_win, self.status_win = nil, nil, nil
end

-- toggle opens or closes the chat.
function Chat:toggle()
  if self:is_open() then
    self:close()
  else
    self:open()
  end
end

-- follow_tail keeps the transcript scrolled to the end while it streams,
-- unless the user moved the cursor up into the history.
function Chat:follow_tail()
  if not self:is_open() or vim.api.nvim_get_current_win() == self.win then
    return
  end
  local last = vim.api.nvim_buf_line_count(self.buf)
  pcall(vim.api.nvim_win_set_cursor, self.win, { last, 0 })
end

-- set_status sets the text of the transcript window's winbar (0.8+) or
-- statusline (a status float in the float layout): the session, mode,
-- model and usage.
function Chat:set_status(text)
  self.status = text
  self:render_status()
end

-- status_width is how many cells the status has: the transcript window's
-- width (the status float's in the float layout), 80 while hidden.
function Chat:status_width()
  for _, win in ipairs({ self.status_win, self.win }) do
    if win and vim.api.nvim_win_is_valid(win) then
      return vim.api.nvim_win_get_width(win)
    end
  end
  return 80
end

-- render_status draws the current status.
function Chat:render_status()
  if not self:is_open() then
    return
  end
  if self.status_win and vim.api.nvim_win_is_valid(self.status_win) then
    vim.api.nvim_buf_set_lines(self.status_buf, 0, -1, false, { self.status })
    return
  end
  local opt = compat.has_winbar() and 'winbar' or 'statusline'
  vim.wo[self.win][opt] = (self.status:gsub('%%', '%%%%'))
end

return M
