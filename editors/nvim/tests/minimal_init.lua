-- Minimal init for the headless test run: the plugin from this checkout,
-- Debian's busted and luassert, nothing of the user's configuration.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
vim.opt.runtimepath:prepend(root)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
package.path = table.concat({
  root .. '/tests/?.lua',
  '/usr/share/lua/5.1/?.lua',
  '/usr/share/lua/5.1/?/init.lua',
  package.path,
}, ';')
package.cpath = '/usr/lib/x86_64-linux-gnu/lua/5.1/?.so;' .. package.cpath
vim.cmd('runtime plugin/companion.lua')
