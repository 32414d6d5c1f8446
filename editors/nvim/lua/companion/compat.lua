-- Feature checks for APIs that differ between Neovim 0.7 and current
-- releases. Everything version-dependent goes through here, so the rest of
-- the plugin reads the same on every version.
local M = {}

-- uv is the libuv binding: vim.uv from 0.10, vim.loop before.
M.uv = vim.uv or vim.loop

-- islist tells whether t is a list (vim.islist from 0.10).
M.islist = vim.islist or vim.tbl_islist

-- has_winbar tells whether windows have a 'winbar' (0.8+).
function M.has_winbar()
  return vim.fn.exists('+winbar') == 1
end

-- health returns start/ok/warn/error/info reporters: vim.health.* (0.10+),
-- vim.health.report_* (0.8, 0.9) or the 'health' module of 0.7.
function M.health()
  local h = vim.health
  if h and h.start then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  h = h or require('health')
  return { start = h.report_start, ok = h.report_ok, warn = h.report_warn, error = h.report_error, info = h.report_info }
end

-- realpath resolves symlinks; nil when the path does not exist.
function M.realpath(path)
  return M.uv.fs_realpath(path)
end

-- is_nil tells whether a decoded JSON value is absent or null.
function M.is_nil(v)
  return v == nil or v == vim.NIL
end

-- val turns JSON null into nil.
function M.val(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

-- utf16_col converts a 0-based byte column of line to UTF-16 code units,
-- the unit LSP positions use.
function M.utf16_col(line, col)
  if not line or col <= 0 then
    return 0
  end
  col = math.min(col, #line)
  if vim.fn.has('nvim-0.11') == 1 then
    -- 0.11 takes the encoding first and deprecates the old form.
    local ok, u16 = pcall(vim.str_utfindex, line, 'utf-16', col, false)
    return ok and u16 or col
  end
  local ok, _, u16 = pcall(vim.str_utfindex, line, col)
  return ok and u16 or col
end

return M
