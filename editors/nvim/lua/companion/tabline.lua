-- A 'tabline' like the built-in one, with readable labels for companion's
-- own buffers: the built-in one shortens "companion://prompt" to
-- "c//prompt". setup() installs it only when 'tabline' is unset (and the
-- `tabline` option is not false).
local M = {}

-- name_of turns a buffer name into a tab label.
function M.name_of(name)
  local kind, rest = name:match('^companion://(%a+)/?(.*)$')
  if kind == 'chat' or kind == 'prompt' or kind == 'status' then
    return 'companion chat'
  elseif kind == 'current' or kind == 'proposed' then
    return 'review ' .. rest:gsub('^%d+/', '')
  elseif kind == 'terminal' then
    return 'terminal ' .. rest
  elseif name == '' then
    return '[No Name]'
  end
  return vim.fn.pathshorten(vim.fn.fnamemodify(name, ':~:.'))
end

-- label is what tab shows: the window count and '+' for changes, as the
-- built-in tabline does, then the current window's buffer.
function M.label(tab)
  local wins, modified = 0, false
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(tab)) do
    if vim.api.nvim_win_get_config(w).relative == '' then
      wins = wins + 1
    end
    modified = modified or vim.bo[vim.api.nvim_win_get_buf(w)].modified
  end
  local buf = vim.api.nvim_win_get_buf(vim.api.nvim_tabpage_get_win(tab))
  local pre = (wins > 1 and tostring(wins) or '') .. (modified and '+' or '')
  return (pre ~= '' and (pre .. ' ') or '') .. M.name_of(vim.api.nvim_buf_get_name(buf))
end

-- render is the 'tabline' expression.
function M.render()
  local out, cur = {}, vim.api.nvim_get_current_tabpage()
  local tabs = vim.api.nvim_list_tabpages()
  for i, tab in ipairs(tabs) do
    out[#out + 1] = (tab == cur and '%#TabLineSel#' or '%#TabLine#') .. '%' .. i .. 'T '
      .. M.label(tab):gsub('%%', '%%%%') .. ' '
  end
  out[#out + 1] = '%#TabLineFill#%T'
  if #tabs > 1 then
    out[#out + 1] = '%=%#TabLine#%999XX'
  end
  return table.concat(out)
end

-- EXPR is the 'tabline' value that calls render.
M.EXPR = "%!v:lua.require'companion.tabline'.render()"

-- install sets 'tabline' unless the user has one.
function M.install()
  if vim.o.tabline == '' then
    vim.o.tabline = M.EXPR
  end
end

return M
