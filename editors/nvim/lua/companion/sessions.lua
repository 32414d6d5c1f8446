-- Saved sessions in the chat: loading one (:CompanionSessions), and
-- bringing back the folder's last conversation when the chat starts. Its
-- methods are the app's (app.lua installs them).
local compat = require('companion.compat')
local config = require('companion.config')

local M = { methods = {} }

-- resume_or_create brings back the folder's last session when the chat
-- starts (once per Neovim, when the agent lists and loads sessions and
-- the option resume is on), else makes a new one; cb(err).
function M.methods:resume_or_create(cb)
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

-- load replays session sid into a cleared transcript.
function M.methods:load(sid, cb)
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
function M.methods:replay(sid, cwd, cb)
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

return M
