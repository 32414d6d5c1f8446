-- What waits for the user, told without taking the focus from where they
-- type: an edit to review (:CompanionReview), a permission question in
-- the chat, the files a turn changed (:CompanionChanges). Its methods are
-- the app's (app.lua installs them).
local config = require('companion.config')

local M = { methods = {} }

-- notify shows a message to the user.
local function notify(msg, level)
  vim.notify('companion: ' .. msg, level or vim.log.levels.INFO)
end

-- reveal shows a hidden chat without moving the cursor: what waits is
-- told there.
function M.methods:reveal()
  local chat = self:view()
  if chat:is_open() then
    return
  end
  local win = vim.api.nvim_get_current_win()
  chat:open()
  if vim.api.nvim_win_is_valid(win) then
    vim.api.nvim_set_current_win(win)
  end
end

-- review_ready tells the user an edit waits for review, without taking
-- the focus from where they type: a line in the chat (gone once decided),
-- the status line and a short message. :CompanionReview opens it.
function M.methods:review_ready(review)
  local name = vim.fn.fnamemodify(review.path or '', ':~:.')
  local keys = config.options.diff or {}
  self:reveal()
  self:note(('✎ Edit of %s waits for your review: :CompanionReview opens it (%s allow, %s reject).'):format(
    name, keys.accept or ':w', keys.reject or 'close the tab'))
  -- Once decided, the notice goes: the edit's card says what happened.
  local t = self.chat.transcript
  local i = #t.blocks
  local block = t.blocks[i]
  review.on_close = function()
    if t.blocks[i] == block then -- not after the chat was cleared
      t:hide(i)
    end
    self:render_status()
  end
  self:render_status()
  self:echo('companion: edit of ' .. name .. ' to review (:CompanionReview)')
end

-- echo shows msg on one line that fits: a longer message would wait for
-- Enter, taking the user's keys.
function M.methods:echo(msg)
  local room = math.max(vim.v.echospace or (vim.o.columns - 12), 10)
  if vim.fn.strdisplaywidth(msg) > room then
    msg = vim.fn.strcharpart(msg, 0, room - 1) .. '…'
  end
  vim.api.nvim_echo({ { msg, 'WarningMsg' } }, false, {})
end

-- ask puts a permission question in the chat (see ask.lua) without
-- taking the focus; a short message says where to answer. Returns the
-- question's close(text).
function M.methods:ask(question, options, stop, choose, more)
  local chat = self:view()
  self:reveal()
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
function M.methods:review()
  local list = require('companion.diff').pending()
  if #list == 0 then
    notify('no edit waits for review')
    return false
  end
  list[1]:show()
  return true
end

-- track_change records a completed edit of this turn (tool call id).
function M.methods:track_change(id)
  local entry = self.turn_changes and self.chat and self.chat.transcript.tools[id]
  if entry and entry.call.status == 'completed' then
    self.turn_changes:record(entry.call)
  end
end

-- settle_changes ends the turn's record: when the turn changed several
-- files, the chat names them and :CompanionChanges reviews them as one
-- change; the status line says so until the user has looked.
function M.methods:settle_changes()
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
function M.methods:changes()
  if not self.changed then
    notify('no turn changed several files')
    return false
  end
  self.changed.looked = true
  self.changed:show()
  self:render_status()
  return true
end

return M
