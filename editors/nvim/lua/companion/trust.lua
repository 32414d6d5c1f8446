-- Neovim's own word on whether a folder is trusted: the trust database of
-- `vim.secure` (0.9+, `:trust`), read directly so nothing prompts. The
-- agent hears it as `isTrusted` in the IDE context (DESIGN.md): false for
-- a folder the database denies ("! path"), true otherwise. Before 0.9
-- there is no such database and nothing is reported.
local compat = require('companion.compat')

local M = {}

-- db_path returns where vim.secure keeps its trust database, or nil when
-- this Neovim has none.
function M.db_path()
  if type(vim.secure) ~= 'table' or type(vim.secure.trust) ~= 'function' then
    return nil
  end
  local ok, dir = pcall(vim.fn.stdpath, 'state')
  if not ok or type(dir) ~= 'string' then
    return nil
  end
  return dir .. '/trust'
end

-- entries reads the database: full path -> hash ('!' for denied).
local function entries(path)
  local out = {}
  local f = io.open(path, 'r')
  if not f then
    return out
  end
  for line in f:lines() do
    local hash, file = line:match('^(%S+) (.+)$')
    if hash then
      out[file] = hash
    end
  end
  f:close()
  return out
end

-- real returns dir as the database names it (absolute, links resolved).
local function real(dir)
  local abs = vim.fn.fnamemodify(dir, ':p')
  if #abs > 1 then
    abs = abs:gsub('/$', '')
  end
  return compat.realpath(abs) or abs
end

-- denied tells whether the database denies dir.
function M.denied(dir)
  local db = M.db_path()
  return db ~= nil and entries(db)[real(dir)] == '!'
end

-- is_trusted returns what to report for dir: false when the database
-- denies it, true when there is a database and it does not, nil when this
-- Neovim has none (then the agent's own folder trust decides alone).
function M.is_trusted(dir)
  if not M.db_path() then
    return nil
  end
  return not M.denied(dir)
end

-- allow clears a denial of dir (the user trusted it with :CompanionTrust,
-- so Neovim and companion agree); true when there was one to clear.
function M.allow(dir)
  if not M.denied(dir) then
    return false
  end
  local ok = pcall(vim.secure.trust, { action = 'remove', path = real(dir) })
  return ok and not M.denied(dir)
end

return M
