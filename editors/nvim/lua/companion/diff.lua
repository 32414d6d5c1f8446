-- The diff tab where an edit is reviewed: the current text on the left,
-- the proposed text on the right, both in real 'diff' mode. The user may
-- change the right side (per hunk with Vim's own `do`/`dp`); accepting
-- hands back what it holds. A review is made without taking focus: its
-- tab opens only when the user asks (show), so keys typed elsewhere never
-- land in a proposal.
local config = require('companion.config')
local compat = require('companion.compat')

local M = {}

-- reviews maps the proposed buffer to its open review; seq numbers the
-- reviews so their buffer names stay unique.
local reviews = {}
local seq = 0

local Review = {}
Review.__index = Review

-- scratch makes a buffer holding text, named so filetype detection works.
local function scratch(name, text, modifiable)
  local buf = vim.api.nvim_create_buf(false, true)
  local lines, eol = require('companion.fs').split_text(text or '')
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].eol = eol
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.api.nvim_buf_call(buf, function()
    vim.cmd('silent! filetype detect')
  end)
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].buftype = modifiable and 'acwrite' or 'nofile'
  vim.bo[buf].modifiable = modifiable
  vim.bo[buf].modified = false
  return buf
end

-- set_bar shows text in the window's winbar (0.8+) or statusline.
function M.set_bar(win, text)
  local opt = compat.has_winbar() and 'winbar' or 'statusline'
  vim.wo[win][opt] = (text:gsub('%%', '%%%%'))
end

-- map sets a key in both buffers of the review.
function Review:map(lhs, fn, desc)
  if not lhs then
    return
  end
  for _, buf in ipairs({ self.old_buf, self.new_buf }) do
    vim.keymap.set('n', lhs, fn, { buffer = buf, nowait = true, desc = desc })
  end
end

-- layout opens the tab with both sides in diff mode (focus goes there).
function Review:layout()
  vim.cmd('tabnew')
  self.tab = vim.api.nvim_get_current_tabpage()
  -- tabnew's empty buffer goes away once the current side replaces it.
  vim.bo[vim.api.nvim_get_current_buf()].bufhidden = 'wipe'
  vim.api.nvim_win_set_buf(0, self.old_buf)
  self.old_win = vim.api.nvim_get_current_win()
  vim.cmd('diffthis')
  vim.cmd('rightbelow vsplit')
  self.new_win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(self.new_win, self.new_buf)
  vim.cmd('diffthis')
  M.set_bar(self.old_win, 'Current: ' .. self.path)
  local keys = config.options.diff or {}
  -- The same words as the agent's permission options ("Allow …",
  -- "Reject"); accepting with several "allow" options asks for the scope.
  M.set_bar(self.new_win, ('Proposed (editable): %s or :w allow, %s reject, do takes a hunk back'):format(
    keys.accept or '-', keys.reject or '-'))
end

-- shown tells whether the review's tab is open.
function Review:shown()
  return self.tab ~= nil and vim.api.nvim_tabpage_is_valid(self.tab)
    and self.new_win ~= nil and vim.api.nvim_win_is_valid(self.new_win)
end

-- show opens the review's tab, or goes to it when open, with the cursor
-- on the proposed side in Normal mode: the user asked for it.
function Review:show()
  if self.done then
    return
  end
  if self:shown() then
    vim.api.nvim_set_current_tabpage(self.tab)
    vim.api.nvim_set_current_win(self.new_win)
  else
    self:layout()
  end
  -- Asked for from Insert mode (a mapping): the review's keys must act on
  -- it, not be typed into the proposal.
  vim.cmd('stopinsert')
end

-- open makes a review without showing it (show opens its tab). spec:
-- path, old_text (nil for a new file), new_text, on_accept(text, changed,
-- done), on_reject(). Returns the review.
function M.open(spec)
  local self = setmetatable({ path = spec.path, new_text = spec.new_text, spec = spec }, Review)
  local rel = vim.fn.fnamemodify(spec.path, ':~:.')
  seq = seq + 1
  local n = seq
  self.old_buf = scratch(('companion://current/%d/%s'):format(n, rel), spec.old_text, false)
  self.new_buf = scratch(('companion://proposed/%d/%s'):format(n, rel), spec.new_text, true)
  self.seq = n
  reviews[self.new_buf] = self
  local keys = config.options.diff or {}
  self:map(keys.accept, function() self:accept() end, 'companion: accept the proposed text')
  self:map(keys.reject, function() self:reject() end, 'companion: reject the edit')
  vim.api.nvim_create_autocmd('BufWriteCmd', { buffer = self.new_buf, callback = function() self:accept() end })
  -- Closing the proposed side without a decision rejects the edit.
  vim.api.nvim_create_autocmd('BufWipeout', { buffer = self.new_buf, callback = function()
    vim.schedule(function() self:reject() end)
  end })
  return self
end

-- text is what the proposed side holds now, ending in a newline like the
-- proposal did.
function Review:text()
  local lines = vim.api.nvim_buf_get_lines(self.new_buf, 0, -1, false)
  local text = table.concat(lines, '\n')
  if vim.bo[self.new_buf].eol and #(self.new_text or '') > 0 then
    text = text .. '\n'
  end
  return text
end

-- accept ends the review with the proposed side's text.
function Review:accept()
  if self.done then
    return
  end
  local text = self:text()
  self.spec.on_accept(text, text ~= self.new_text, function(ok)
    if ok then
      self:close()
    end
  end, self)
end

-- choose asks for one of options on the proposed side's bar, without
-- taking the keyboard: a number key picks one, <Esc> keeps the review
-- open; on_choice(option or nil).
function Review:choose(options, on_choice)
  local keys, names = {}, {}
  for i, o in ipairs(vim.list_slice(options, 1, 9)) do
    keys[#keys + 1] = tostring(i)
    names[#names + 1] = ('%d %s'):format(i, o.name)
  end
  keys[#keys + 1] = '<Esc>'
  local bar = self.new_win and vim.api.nvim_win_is_valid(self.new_win)
    and vim.wo[self.new_win][compat.has_winbar() and 'winbar' or 'statusline']
  local function finish(option)
    for _, k in ipairs(keys) do
      for _, buf in ipairs({ self.old_buf, self.new_buf }) do
        pcall(vim.keymap.del, 'n', k, { buffer = buf })
      end
    end
    if bar and vim.api.nvim_win_is_valid(self.new_win) then
      vim.wo[self.new_win][compat.has_winbar() and 'winbar' or 'statusline'] = bar
    end
    on_choice(option)
  end
  for i, k in ipairs(keys) do
    self:map(k, function() finish(options[i]) end, 'companion: allow the edit with this scope')
  end
  if bar then
    M.set_bar(self.new_win, 'Allow: ' .. table.concat(names, ' · ') .. ' · <Esc> back')
  end
end

-- reject ends the review without the edit.
function Review:reject()
  if self.done then
    return
  end
  self:close()
  self.spec.on_reject()
end

-- close removes the tab (the review is over either way).
function Review:close()
  if self.done then
    return
  end
  self.done = true
  reviews[self.new_buf] = nil
  if self.on_close then
    vim.schedule(self.on_close)
  end
  if self.tab and vim.api.nvim_tabpage_is_valid(self.tab) and #vim.api.nvim_list_tabpages() > 1 then
    local nr = vim.api.nvim_tabpage_get_number(self.tab)
    pcall(vim.cmd, 'tabclose! ' .. nr)
  end
  for _, buf in ipairs({ self.old_buf, self.new_buf }) do
    if vim.api.nvim_buf_is_valid(buf) then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
  end
end

-- pending lists the reviews waiting for a decision, the oldest first.
function M.pending()
  local list = vim.tbl_values(reviews)
  table.sort(list, function(a, b) return a.seq < b.seq end)
  return list
end

-- current returns the open review (the latest), for keymaps and tests.
function M.current()
  local buf = vim.api.nvim_get_current_buf()
  if reviews[buf] then
    return reviews[buf]
  end
  for _, r in pairs(reviews) do
    if r.old_buf == buf then
      return r
    end
  end
  local latest
  for _, r in pairs(reviews) do
    if not latest or r.new_buf > latest.new_buf then
      latest = r
    end
  end
  return latest
end

return M
