-- "Changed this turn": the files one turn's edits changed, reviewed as
-- one change. A list (its own tab) names each file with its +/- lines;
-- <CR> opens a file against its text from before the turn in diff mode
-- (the real file on the right: `do` takes a hunk back), x reverts a file,
-- A keeps them all, R reverts them all, q closes. Reverting writes the
-- old text through the loaded buffer when there is one (one undo step).
local compat = require('companion.compat')
local fs = require('companion.fs')

local M = {}

local Changes = {}
Changes.__index = Changes

-- new starts the record of a turn.
function M.new()
  return setmetatable({ files = {}, order = {} }, Changes)
end

-- record notes the diff items of a completed edit: the first old text a
-- file had in this turn is what reverting it writes back.
function Changes:record(call)
  for _, c in ipairs(call.content or {}) do
    if c.type == 'diff' and type(c.path) == 'string' and not self.files[c.path] then
      self.files[c.path] = { path = c.path, old = compat.val(c.oldText) }
      self.order[#self.order + 1] = c.path
    end
  end
end

-- count is how many files the turn changed.
function Changes:count()
  return #self.order
end

-- now returns a file's text now (its buffer, else the disk; nil when it
-- is gone).
local function now(path)
  local ok, res = pcall(fs.read, { path = path })
  return ok and res.content or nil
end

-- stat is a file's "+a −d" against its text before the turn.
local function stat(f)
  local ok, hunks = pcall(vim.diff, f.old or '', now(f.path) or '', { result_type = 'indices' })
  local add, del = 0, 0
  for _, h in ipairs(ok and hunks or {}) do
    del, add = del + h[2], add + h[4]
  end
  return ('+%d −%d'):format(add, del)
end

-- summary names the files with their changes, for the chat.
function Changes:summary()
  local parts = {}
  for _, p in ipairs(self.order) do
    local f = self.files[p]
    parts[#parts + 1] = ('%s (%s%s)'):format(vim.fn.fnamemodify(p, ':~:.'), f.old and '' or 'new, ', stat(f))
  end
  return table.concat(parts, ', ')
end

-- revert writes a file's text from before the turn back (a file the turn
-- made is deleted); the state tells the list.
function Changes:revert(path)
  local f = self.files[path]
  if not f or f.reverted then
    return
  end
  if f.old then
    fs.write({ path = path, content = f.old })
  else
    local buf = fs.find_buffer(path)
    if buf then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
    os.remove(path)
  end
  f.reverted = true
end

-- lines draws the list.
function Changes:lines()
  local out = { ('Changed this turn: %d files. <CR> diff · x revert file · A keep all · R revert all · q close'):format(
    #self.order) }
  for _, p in ipairs(self.order) do
    local f = self.files[p]
    local state = f.reverted and 'reverted' or (f.old and stat(f) or ('new file ' .. stat(f)))
    out[#out + 1] = ('  %s  %s'):format(vim.fn.fnamemodify(p, ':~:.'), state)
  end
  return out
end

-- draw writes the list into its buffer.
function Changes:draw()
  if not (self.buf and vim.api.nvim_buf_is_valid(self.buf)) then
    return
  end
  vim.bo[self.buf].modifiable = true
  vim.api.nvim_buf_set_lines(self.buf, 0, -1, false, self:lines())
  vim.bo[self.buf].modifiable = false
end

-- at returns the path on line lnum of the list.
function Changes:at(lnum)
  return self.order[lnum - 1]
end

-- close ends the list's tab.
function Changes:close()
  if self.tab and vim.api.nvim_tabpage_is_valid(self.tab) and #vim.api.nvim_list_tabpages() > 1 then
    pcall(vim.cmd, 'tabclose! ' .. vim.api.nvim_tabpage_get_number(self.tab))
  end
  self.tab = nil
end

-- diff shows path against its text before the turn, in diff mode, below
-- the list: the real file on the right.
function Changes:diff(path)
  local f = self.files[path]
  if not f or f.reverted then
    return
  end
  vim.api.nvim_set_current_win(self.list_win)
  vim.cmd('silent! only')
  vim.cmd('belowright split')
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local ft = vim.bo.filetype
  vim.cmd('diffthis')
  local before = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(before, 0, -1, false, (fs.split_text(f.old or '')))
  vim.bo[before].bufhidden = 'wipe'
  vim.bo[before].modifiable = false
  pcall(vim.api.nvim_buf_set_name, before, 'companion://before-turn/' .. vim.fn.fnamemodify(path, ':~:.'))
  vim.cmd('leftabove vsplit')
  vim.api.nvim_win_set_buf(0, before)
  vim.bo[before].filetype = ft
  vim.cmd('diffthis')
  vim.cmd('wincmd l')
end

-- show opens the list in a tab of its own (or goes there); on_close runs
-- when the user keeps or reverts everything or closes it.
function Changes:show()
  if self.tab and vim.api.nvim_tabpage_is_valid(self.tab) then
    vim.api.nvim_set_current_tabpage(self.tab)
    return
  end
  vim.cmd('tabnew')
  self.tab = vim.api.nvim_get_current_tabpage()
  self.list_win = vim.api.nvim_get_current_win()
  self.buf = vim.api.nvim_get_current_buf()
  vim.bo[self.buf].buftype = 'nofile'
  vim.bo[self.buf].bufhidden = 'wipe'
  vim.bo[self.buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, self.buf, 'companion://changed-this-turn')
  self:draw()
  local function map(lhs, fn)
    vim.keymap.set('n', lhs, fn, { buffer = self.buf, nowait = true, silent = true, desc = 'companion: changed this turn' })
  end
  local function here() return self:at(vim.api.nvim_win_get_cursor(0)[1]) end
  map('<CR>', function() local p = here(); if p then self:diff(p) end end)
  map('x', function() local p = here(); if p then self:revert(p); self:draw() end end)
  map('A', function() self:close() end)
  map('R', function()
    for _, p in ipairs(self.order) do self:revert(p) end
    self:close()
  end)
  map('q', function() self:close() end)
  vim.api.nvim_win_set_cursor(self.list_win, { math.min(2, vim.api.nvim_buf_line_count(self.buf)), 0 })
  vim.cmd('stopinsert')
end

return M
