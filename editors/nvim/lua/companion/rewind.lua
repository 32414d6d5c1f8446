-- Rewind (:CompanionRewind, gR): the chat forks the session before one of
-- the user's messages, once the user confirms; the agent restores the
-- files, the fork is loaded and the message goes back to the prompt. Its
-- methods are the app's (app.lua installs them).
local M = { methods = {} }

-- notify shows a message to the user.
local function notify(msg, level)
  vim.notify('companion: ' .. msg, level or vim.log.levels.INFO)
end

-- rewind_lnum is the chat line a rewind acts on: lnum, else the cursor's
-- line when the cursor is in the chat buffer.
function M.methods:rewind_lnum(lnum)
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
function M.methods:rewind(lnum)
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
function M.methods:run_rewind(sid, index)
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

return M
