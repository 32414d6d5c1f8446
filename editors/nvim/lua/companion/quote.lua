-- Quoting a buffer's lines into the prompt (:'<,'>CompanionAdd): the
-- file's name and line range, then the lines verbatim in a code fence
-- long enough that no line inside can close it.
local M = {}

-- fence returns a run of backticks longer than any run in lines (three
-- at least).
local function fence(lines)
  local longest = 0
  for _, l in ipairs(lines) do
    for run in l:gmatch('`+') do
      longest = math.max(longest, #run)
    end
  end
  return string.rep('`', math.max(3, longest + 1))
end

-- lines returns the quote of lines line1..line2 (1-based, inclusive, in
-- either order) of buf.
function M.lines(buf, line1, line2)
  if line1 > line2 then
    line1, line2 = line2, line1
  end
  local lines = vim.api.nvim_buf_get_lines(buf, line1 - 1, line2, false)
  local name = vim.api.nvim_buf_get_name(buf)
  name = name ~= '' and vim.fn.fnamemodify(name, ':~:.') or ('buffer ' .. buf)
  local where = line1 == line2 and ('line %d'):format(line1) or ('lines %d-%d'):format(line1, line2)
  local f = fence(lines)
  local out = { ('%s %s:'):format(name, where), f .. (vim.bo[buf].filetype or '') }
  vim.list_extend(out, lines)
  out[#out + 1] = f
  return table.concat(out, '\n')
end

return M
