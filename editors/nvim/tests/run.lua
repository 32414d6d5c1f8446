-- Runs the busted suite inside headless Neovim (see ci.sh). On Lua 5.1
-- busted ends a failing run with a bare error() (err is nil): exit 1. Any
-- other error means the suite could not run at all: exit 2. Only a clean
-- run exits 0.
_G.arg = { vim.env.COMPANION_SPECS or 'tests/spec' }
local ok, err = pcall(function()
  require('busted.runner')({ standalone = false })
end)
if not ok then
  if err == nil then
    vim.cmd('cquit 1')
  end
  io.stderr:write('could not run the tests: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 2')
end
vim.cmd('qa!')
