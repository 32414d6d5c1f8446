-- "Follow the agent": open what a tool call touched, from its card in the
-- chat: its review while the edit waits for one, the terminal it ran in,
-- else the file and line it names.
local compat = require('companion.compat')
local config = require('companion.config')
local permission = require('companion.permission')

local M = {}

-- show_terminal opens a terminal's buffer in a split at the bottom (unless
-- it is showing already); focus moves there when asked.
function M.show_terminal(app, id, focus)
  local t = app.terminals and app.terminals:find(id)
  if not t or not vim.api.nvim_buf_is_valid(t.buf) or vim.fn.bufwinid(t.buf) ~= -1 then
    return
  end
  local cur = vim.api.nvim_get_current_win()
  vim.cmd(('botright %dsplit'):format(config.options.terminal.height))
  vim.api.nvim_win_set_buf(0, t.buf)
  if not focus then
    vim.api.nvim_set_current_win(cur)
  end
end

-- file_window returns a window to open files in: the last file window the
-- context tracker saw, else any window outside the chat, else a new split.
local function file_window(app)
  local chat = app.chat or {}
  local last = app.tracker and app.tracker.active_win
  if last and vim.api.nvim_win_is_valid(last) and last ~= chat.win and last ~= chat.input_win then
    return last
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if win ~= chat.win and win ~= chat.input_win and vim.api.nvim_win_get_config(win).relative == '' then
      return win
    end
  end
  vim.cmd('topleft vsplit')
  return vim.api.nvim_get_current_win()
end

-- tool_call opens the call's terminal, or its first location (or the file
-- of its diff) at the line given.
function M.tool_call(app, call)
  -- An edit waiting for review: its review.
  for _, r in ipairs(require('companion.diff').pending()) do
    if r.spec.tool_call_id and r.spec.tool_call_id == call.toolCallId then
      r:show()
      return
    end
  end
  for _, c in ipairs(call.content or {}) do
    if c.type == 'terminal' then
      M.show_terminal(app, c.terminalId, true)
      return
    end
  end
  local loc = (call.locations or {})[1]
  local diff = permission.first_diff(call)
  local path = (loc and loc.path) or (diff and diff.path)
  if not path then
    return
  end
  vim.api.nvim_set_current_win(file_window(app))
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local line = loc and compat.val(loc.line)
  if line then
    pcall(vim.api.nvim_win_set_cursor, 0, { line, 0 })
  end
end

return M
