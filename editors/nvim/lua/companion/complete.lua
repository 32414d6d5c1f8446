-- Completion in the prompt buffer ('omnifunc' and 'completefunc'): slash
-- commands from the agent's available_commands_update at the start of the
-- prompt, and file paths after '@'.
local M = {}

-- commands is the latest list the agent announced: {name, description,
-- input = {hint}}.
local commands = {}

-- set_commands replaces the known commands.
function M.set_commands(list)
  commands = list or {}
end

-- get_commands returns the known commands.
function M.get_commands()
  return commands
end

-- find_start returns the 0-based column where the word to complete begins
-- and what kind it is ('command', 'file'), or -3 (cancel silently).
local function find_start()
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local before = vim.api.nvim_get_current_line():sub(1, col)
  local at = before:match('()@[^%s@]*$')
  if at then
    return at, 'file'
  end
  if row == 1 then
    local slash = before:match('^%s*()/%S*$')
    if slash then
      return slash - 1, 'command'
    end
  end
  return -3
end

-- command_items lists the commands matching base ('/na').
function M.command_items(base)
  local items = {}
  local prefix = base:gsub('^/', '')
  for _, c in ipairs(commands) do
    if vim.startswith(c.name, prefix) then
      local hint = type(c.input) == 'table' and c.input.hint or nil
      items[#items + 1] = { word = '/' .. c.name, menu = hint, info = c.description, abbr = '/' .. c.name }
    end
  end
  return items
end

-- file_items lists paths matching base ('@src/ma').
function M.file_items(base)
  local items = {}
  for _, p in ipairs(vim.fn.getcompletion(base:sub(2), 'file')) do
    items[#items + 1] = { word = '@' .. p, abbr = p }
  end
  return items
end

-- omnifunc implements the completion protocol of 'omnifunc'.
function M.omnifunc(findstart, base)
  if findstart == 1 then
    local start, kind = find_start()
    vim.b.companion_complete_kind = kind
    return start
  end
  if vim.b.companion_complete_kind == 'file' then
    return M.file_items(base)
  end
  return M.command_items(base)
end

return M
