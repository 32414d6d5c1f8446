-- The chat transcript: a markdown buffer made of blocks (user and agent
-- messages, thoughts, tool call cards, the plan, notes). Blocks know their
-- own lines; the buffer is their concatenation. Streaming appends touch only
-- the last lines, and a card update rewrites only its own block.
local compat = require('companion.compat')

local M = {}

-- by_buf finds a transcript from its buffer (for 'foldexpr').
local by_buf = {}

local T = {}
T.__index = T

-- status_icon marks a tool call's status in its card.
M.status_icon = {
  pending = '○',
  in_progress = '◐',
  completed = '✓',
  failed = '✗',
  cancelled = '⊘',
  rejected = '⊘',
  blocked = '⊘',
}

-- outcomes are the ends of a failed call that were no error: the user's
-- decision, or the agent's loop detection not running a repeated call.
local outcomes = { rejected = true, cancelled = true, blocked = true }

-- outcome returns 'rejected', 'cancelled' or 'blocked' when a failed call
-- ended so (companion says so in _meta.companion.outcome; ACP has no such
-- status), else nil.
local function outcome(call)
  local meta = type(call._meta) == 'table' and call._meta.companion
  local o = type(meta) == 'table' and meta.outcome
  if outcomes[o] then
    return o
  end
  return nil
end

-- in_insert tells whether Insert (or Replace) mode is on.
local function in_insert()
  local mode = vim.api.nvim_get_mode().mode
  return mode:sub(1, 1) == 'i' or mode:sub(1, 1) == 'R'
end

-- refresh_folds recomputes the folds of the windows of transcripts changed
-- while Insert mode was on: Neovim does not update other windows' folds in
-- Insert mode (0.7 leaves them at level 0 until 'zx'). Setting 'foldmethod'
-- again updates them and keeps the folds the user opened.
local function refresh_folds()
  for buf, self in pairs(by_buf) do
    if self.folds_stale and vim.api.nvim_buf_is_valid(buf) then
      self.folds_stale = nil
      for _, win in ipairs(vim.fn.win_findbuf(buf)) do
        if vim.wo[win].foldmethod == 'expr' then
          vim.wo[win].foldmethod = 'expr'
          if in_insert() then
            vim.api.nvim_win_call(win, function() vim.cmd('silent! normal! zx') end)
          end
        end
      end
    end
  end
end

local fold_group

-- new makes a transcript over buf (a scratch, markdown buffer).
-- opts.terminal_tail(id) returns the last lines a terminal printed.
function M.new(buf, opts)
  local self = setmetatable({ buf = buf, opts = opts or {}, blocks = {}, tools = {}, starts = {}, valid = 0 }, T)
  by_buf[buf] = self
  if not fold_group then
    fold_group = vim.api.nvim_create_augroup('companion_transcript_folds', { clear = true })
    vim.api.nvim_create_autocmd('InsertLeave', {
      group = fold_group,
      callback = function() vim.schedule(refresh_folds) end,
    })
  end
  return self
end

-- start returns the 0-based first line of block i (cached; blocks above a
-- changed block keep their cached starts).
function T:start(i)
  if i <= self.valid then
    return self.starts[i]
  end
  local row = self.valid > 0 and (self.starts[self.valid] + #self.blocks[self.valid].lines) or 0
  for j = self.valid + 1, i do
    self.starts[j] = row
    row = row + #self.blocks[j].lines
  end
  self.valid = i
  return self.starts[i]
end

-- invalidate forgets the starts after block i.
function T:invalidate(i)
  self.valid = math.min(self.valid, i)
end

-- set_lines writes buffer lines [from, to) while the buffer is locked for
-- the user.
function T:set_lines(from, to, lines)
  local buf = self.buf
  if not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  for i, l in ipairs(lines) do
    -- A buffer line cannot hold a newline; blocks split their text, so
    -- this only guards odd input (a title with a newline in it).
    if l:find('\n', 1, true) then
      lines[i] = l:gsub('\n', '↵')
    end
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, from, to, false, lines)
  vim.bo[buf].modifiable = false
  self.folds_tick = nil
  if in_insert() then
    -- The user types (the next prompt, often): the thoughts fold now, not
    -- only when they leave Insert mode.
    self.folds_stale = true
    if not self.folds_queued then
      self.folds_queued = true
      vim.schedule(function()
        self.folds_queued = nil
        refresh_folds()
      end)
    end
  end
  if self.opts.on_change then
    self.opts.on_change()
  end
end

-- add appends a block and draws it. The first block replaces the empty
-- line a new buffer starts with. A thought before it is over.
function T:add(block)
  self:finish_thought()
  local i = #self.blocks + 1
  if i > 1 then
    table.insert(block.lines, 1, '')
  end
  self.blocks[i] = block
  local row = self:start(i)
  self:set_lines(i == 1 and 0 or row, i == 1 and -1 or row, block.lines)
  return i
end

-- replace redraws block i with new lines (keeping its separator).
function T:replace(i, lines)
  local block = self.blocks[i]
  if i > 1 then
    table.insert(lines, 1, '')
  end
  local row = self:start(i)
  local old = #block.lines
  block.lines = lines
  self:invalidate(i)
  self:set_lines(row, row + old, lines)
end

-- hide removes block i's lines, separator included (a notice that no
-- longer holds); the block keeps its place so later indexes stay.
function T:hide(i)
  local block = self.blocks[i]
  if not block or #block.lines == 0 then
    return
  end
  local row = self:start(i)
  local old = #block.lines
  block.lines = {}
  self:invalidate(i)
  self:set_lines(row, row + old, {})
end

-- headers and line prefixes of the text blocks.
local text_style = {
  user = { header = '## You', prefix = '' },
  agent = { header = '## companion', prefix = '' },
  thought = { header = '> Thinking…', prefix = '> ' },
}

-- thought_done is the header of a thought the model has finished.
M.thought_done = '> Thought'

-- finish_thought retitles the last block when it is a thought still
-- titled "Thinking…": something came after it, or the turn ended.
function T:finish_thought()
  local i = #self.blocks
  local b = self.blocks[i]
  if not b or b.kind ~= 'thought' or b.done then
    return
  end
  b.done = true
  local k = i > 1 and 2 or 1 -- after the separator
  if b.lines[k] ~= text_style.thought.header then
    return
  end
  b.lines[k] = M.thought_done
  local row = self:start(i) + k - 1
  self:set_lines(row, row + 1, { M.thought_done })
end

-- append_text streams text into the last block of kind ('user', 'agent',
-- 'thought'), starting a new block when the last block is another kind or
-- another message.
function T:append_text(kind, text, message_id)
  local last = self.blocks[#self.blocks]
  local style = text_style[kind]
  if not last or last.kind ~= kind or last.done or (message_id and last.message_id and last.message_id ~= message_id) then
    -- The agent's header once per turn: text after a tool call goes on
    -- under the same one.
    local headed = kind == 'agent' and self.agent_headed
    self:add({ kind = kind, message_id = message_id, lines = headed and { style.prefix } or { style.header, style.prefix } })
    last = self.blocks[#self.blocks]
    if kind == 'agent' then
      self.agent_headed = true
    elseif kind == 'user' then
      self.agent_headed = false
    end
  end
  local pieces = vim.split((text:gsub('\r\n', '\n')), '\n', { plain = true })
  local lines = last.lines
  local first_changed = #lines
  lines[#lines] = lines[#lines] .. pieces[1]
  for k = 2, #pieces do
    lines[#lines + 1] = style.prefix .. pieces[k]
  end
  local row = self:start(#self.blocks)
  self:set_lines(row + first_changed - 1, row + first_changed, vim.list_slice(lines, first_changed))
end

-- note adds a line of information (errors, stop reasons).
function T:note(text)
  local lines = vim.split(text, '\n', { plain = true })
  self:add({ kind = 'note', lines = lines })
end

-- indented adds the lines of text to out, each after pad, at most max of
-- them. Cards are shown verbatim, not as markdown, so with fences set the
-- lines of markdown code fences in a tool's text (noise there) are left
-- out; a terminal's output is kept whole.
local function indented(out, text, pad, max, fences)
  local lines = vim.split(text, '\n', { plain = true, trimempty = true })
  if fences then
    lines = vim.tbl_filter(function(l) return not l:match('^%s*```+[%w_+-]*%s*$') end, lines)
  end
  for k, l in ipairs(lines) do
    if k > max then
      out[#out + 1] = pad .. ('… %d more lines'):format(#lines - max)
      break
    end
    out[#out + 1] = pad .. l
  end
end

-- diff_stat counts added and removed lines between two texts.
local function diff_stat(old, new)
  local ok, hunks = pcall(vim.diff, old or '', new or '', { result_type = 'indices' })
  if not ok then
    return ''
  end
  local add, del = 0, 0
  for _, h in ipairs(hunks) do
    del, add = del + h[2], add + h[4]
  end
  return (' (+%d −%d)'):format(add, del)
end

-- diff_lines adds the unified hunks between two texts (at most max
-- lines), so an edit reads as a diff without markdown fences.
local function diff_lines(out, old, new, max)
  local ok, text = pcall(vim.diff, old or '', new or '', { result_type = 'unified', ctxlen = 1 })
  if ok and type(text) == 'string' and text ~= '' then
    indented(out, text, '  ', max)
  end
end

-- content_lines renders a tool call's content items. An edit shows its
-- own diff (the agent's text about it would say the same again); a
-- terminal shows its last lines, and nothing when it has none (a replayed
-- card: the output is gone). Text is cut after 6 lines, except on a mode
-- switch: that is the plan the user approves, shown whole.
function T:content_lines(out, content, kind)
  local has_diff = false
  for _, c in ipairs(content or {}) do
    has_diff = has_diff or c.type == 'diff'
  end
  for _, c in ipairs(content or {}) do
    if c.type == 'diff' then
      local old = compat.val(c.oldText)
      out[#out + 1] = ('  %s %s%s'):format(old and 'edit' or 'new file', vim.fn.fnamemodify(c.path or '', ':~:.'),
        diff_stat(old, c.newText))
      diff_lines(out, old, c.newText, 40)
    elseif c.type == 'terminal' then
      local tail = self.opts.terminal_tail and self.opts.terminal_tail(c.terminalId)
      if tail and tail ~= '' then
        out[#out + 1] = '  terminal ' .. tostring(c.terminalId)
        indented(out, tail, '  │ ', 8)
      end
    elseif c.type == 'content' and type(c.content) == 'table' and not has_diff then
      local block = c.content
      local text = block.type == 'text' and block.text or ('[' .. tostring(block.type) .. ']')
      indented(out, text, '  ', kind == 'switch_mode' and 500 or 6, true)
    end
  end
end

-- tool_lines renders a tool call card: status, kind, title, then details.
function T:tool_lines(call)
  local status = call.status or 'pending'
  if status == 'failed' then
    status = outcome(call) or status
  end
  local title = tostring(call.title or call.toolCallId)
  if title:find('\n', 1, true) then
    title = title:match('^[^\n]*') .. ' …' -- a multi-line command: its first line
  end
  local out = { ('%s [%s · %s] %s'):format(M.status_icon[status] or '•', call.kind or 'other', status, title) }
  for _, loc in ipairs(call.locations or {}) do
    local line = compat.val(loc.line)
    out[#out + 1] = '  at ' .. vim.fn.fnamemodify(loc.path or '', ':~:.') .. (line and (':' .. line) or '')
  end
  self:content_lines(out, call.content, call.kind)
  return out
end

-- merge copies the non-null fields of update onto call.
local function merge(call, update)
  for k, v in pairs(update) do
    if k ~= 'sessionUpdate' and v ~= vim.NIL then
      call[k] = v
    end
  end
end

-- tool adds or updates the card of a tool call (tool_call and
-- tool_call_update carry the same fields).
function T:tool(update)
  local id = update.toolCallId
  local entry = self.tools[id]
  if not entry then
    local call = {}
    merge(call, update)
    local i = self:add({ kind = 'tool', id = id, lines = self:tool_lines(call) })
    self.tools[id] = { call = call, index = i }
    return
  end
  merge(entry.call, update)
  self:replace(entry.index, self:tool_lines(entry.call))
end

-- refresh_tools redraws the cards showing terminal id (new output).
function T:refresh_terminal(terminal_id)
  for _, entry in pairs(self.tools) do
    for _, c in ipairs(entry.call.content or {}) do
      if c.type == 'terminal' and c.terminalId == terminal_id then
        self:replace(entry.index, self:tool_lines(entry.call))
        break
      end
    end
  end
end

-- cancel_tools marks every unfinished call cancelled (after session/cancel,
-- ACP leaves that to the client).
function T:cancel_tools()
  for _, entry in pairs(self.tools) do
    local s = entry.call.status
    if s == nil or s == 'pending' or s == 'in_progress' then
      entry.call.status = 'cancelled'
      self:replace(entry.index, self:tool_lines(entry.call))
    end
  end
end

-- plan_marks renders plan entry statuses as checkboxes.
local plan_marks = { completed = '- [x] ', in_progress = '- [~] ', pending = '- [ ] ' }

-- plan shows the plan as a checklist, updated in place.
function T:plan(entries)
  local lines = { '### Plan' }
  for _, e in ipairs(entries or {}) do
    local line = (plan_marks[e.status] or '- [ ] ') .. tostring(e.content)
    if e.status == 'in_progress' then
      line = line .. '  ← in progress'
    end
    lines[#lines + 1] = line
  end
  if self.plan_index then
    self:replace(self.plan_index, lines)
  else
    self.plan_index = self:add({ kind = 'plan', lines = lines })
  end
end

-- fold_levels computes 'foldexpr' values: each thought block is a fold.
function T:fold_levels()
  local tick = vim.api.nvim_buf_get_changedtick(self.buf)
  if self.folds_tick == tick then
    return self.folds
  end
  local levels = {}
  for i, b in ipairs(self.blocks) do
    local first = self:start(i) + (i > 1 and 1 or 0) -- skip the separator
    if b.kind == 'thought' then
      levels[first + 1] = '>1'
      for l = first + 2, self:start(i) + #b.lines do
        levels[l] = '1'
      end
    end
  end
  self.folds, self.folds_tick = levels, tick
  return levels
end

-- foldexpr is the 'foldexpr' of transcript windows.
function M.foldexpr(lnum)
  local self = by_buf[vim.api.nvim_get_current_buf()]
  if not self then
    return '0'
  end
  return self:fold_levels()[lnum] or '0'
end

-- tool_at returns the tool call whose card holds 1-based line lnum.
function T:tool_at(lnum)
  for _, entry in pairs(self.tools) do
    local first = self:start(entry.index) + 1
    if lnum >= first and lnum < first + #self.blocks[entry.index].lines then
      return entry.call
    end
  end
  return nil
end

-- user_index_at returns the 0-based position, among the user messages, of
-- the one whose block holds 1-based line lnum (nil when lnum is elsewhere).
function T:user_index_at(lnum)
  local n = 0
  for i, block in ipairs(self.blocks) do
    if block.kind == 'user' then
      local first = self:start(i) + 1
      if lnum >= first and lnum < first + #block.lines then
        return n
      end
      n = n + 1
    end
  end
  return nil
end

-- clear empties the transcript (a new or loaded session).
function T:clear()
  self.blocks, self.tools, self.starts, self.valid, self.plan_index = {}, {}, {}, 0, nil
  self.agent_headed = nil
  self.progress_n = nil
  self:set_lines(0, -1, {})
end

-- end_row is the 0-based line after the last block.
function T:end_row()
  local n = #self.blocks
  if n == 0 then
    return 0
  end
  return self:start(n) + #self.blocks[n].lines
end

-- progress shows text on a line of its own below the blocks while a turn
-- runs (new blocks go above it); nil removes it.
function T:progress(text)
  if #self.blocks == 0 then
    return
  end
  local row = self:end_row()
  local lines = text and { '', text } or {}
  if not self.progress_n and not text then
    return
  end
  self:set_lines(row, row + (self.progress_n or 0), lines)
  self.progress_n = text and #lines or nil
end

-- text returns the whole transcript (tests and yanking).
function T:text()
  return table.concat(vim.api.nvim_buf_get_lines(self.buf, 0, -1, false), '\n')
end

-- forget drops the buffer mapping when the buffer goes away.
function T:forget()
  by_buf[self.buf] = nil
end

return M
