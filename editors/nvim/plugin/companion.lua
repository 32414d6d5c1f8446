-- User commands of companion.nvim (see :help companion.txt and README.md).
if vim.g.loaded_companion then
  return
end
vim.g.loaded_companion = true

if vim.fn.has('nvim-0.7') == 0 then
  vim.notify('companion.nvim needs Neovim 0.7 or newer', vim.log.levels.ERROR)
  return
end

local command = vim.api.nvim_create_user_command

command('Companion', function(opts)
  require('companion').open(opts.args)
end, {
  nargs = '*',
  -- Allowed so ':'<,'>Companion ...' works: the selection reaches the agent
  -- as editor context.
  range = true,
  desc = 'companion: open the chat (and send a prompt)',
})

command('CompanionToggle', function()
  require('companion').toggle()
end, { desc = 'companion: show or hide the chat' })

command('CompanionCancel', function()
  require('companion').cancel()
end, { desc = 'companion: cancel the running turn' })

command('CompanionSessions', function()
  require('companion').sessions()
end, { desc = 'companion: load a saved session' })

command('CompanionTrust', function(opts)
  require('companion').trust(opts.args, opts.bang)
end, {
  nargs = '?',
  bang = true,
  complete = 'dir',
  desc = 'companion: trust the folder (default: the working directory); ! revokes',
})

command('CompanionAttach', function(opts)
  require('companion').attach(opts.args)
end, {
  nargs = 1,
  complete = 'file',
  desc = 'companion: attach an image file (png, jpeg, gif, webp) to the next prompt',
})

command('CompanionRewind', function()
  require('companion').rewind()
end, { desc = 'companion: rewind to before the user message under the cursor (files restored)' })

command('CompanionStats', function()
  require('companion').stats()
end, { desc = 'companion: show the session\'s requests, tokens, time and tool calls' })

command('CompanionReview', function()
  require('companion').review()
end, { desc = 'companion: open the edit waiting for review, or go to its tab' })

command('CompanionAdd', function(opts)
  require('companion').add(opts.line1, opts.line2)
end, {
  range = true,
  desc = 'companion: quote the lines (the selection with :\'<,\'>) into the prompt',
})

command('CompanionChanges', function()
  require('companion').changes()
end, { desc = 'companion: the files the last turn changed: keep or revert them, all or one by one' })
