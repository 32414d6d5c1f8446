-- companion for Neovim: chat with the companion agent over ACP.
--
--   require('companion').setup({ cmd = 'companion', layout = 'split' })
--
-- :Companion [prompt]  open the chat (and send prompt)
-- :CompanionToggle     show or hide the chat
-- :CompanionCancel     cancel the running turn
-- :CompanionSessions   pick a saved session and load it
-- :CompanionTrust[!] [dir]  trust the folder (! revokes): `companion trust`
-- :CompanionAttach {file}   attach an image file to the next prompt
-- :CompanionStats      the session's figures (requests, tokens, tool calls)
-- :CompanionReview     open the edit waiting for review (ga allow, gr reject)
-- :[range]CompanionAdd quote the lines into the prompt
-- :CompanionChanges    the files the last turn changed, kept or reverted together
local config = require('companion.config')

local M = {}

-- app returns the running state (started lazily).
local function app()
  return require('companion.app').get()
end

-- setup sets the options (see config.lua and README.md).
function M.setup(opts)
  config.setup(opts)
  if config.options.tabline then
    require('companion.tabline').install()
  end
  return M
end

-- open shows the chat, starting the agent and a session when needed; with
-- text it sends that as a prompt.
function M.open(text)
  app():open()
  if text and vim.trim(text) ~= '' then
    app():submit(text)
  end
end

-- toggle shows or hides the chat.
function M.toggle()
  app():toggle()
end

-- cancel stops the running turn.
function M.cancel()
  return app():cancel()
end

-- sessions lists the saved sessions and loads the chosen one.
function M.sessions()
  require('companion.pickers').sessions(app())
end

-- pick_mode, pick_model and pick_option change the session's config
-- options through vim.ui.select.
function M.pick_mode()
  require('companion.pickers').category(app(), 'mode')
end

function M.pick_model()
  require('companion.pickers').category(app(), 'model')
end

function M.pick_option()
  require('companion.pickers').options(app())
end

-- rewind forks the conversation before the user message under the cursor
-- in the chat (or line lnum of the chat buffer), after a confirmation: the
-- files are restored and the message goes back to the prompt.
function M.rewind(lnum)
  app():rewind(lnum)
end

-- stats shows the current session's figures in a float (:CompanionStats);
-- done(err, buf) is called once shown (or not).
function M.stats(done)
  require('companion.stats').show(require('companion.app').get(), done)
end

-- review opens the edit waiting for review, or goes to its tab, in Normal
-- mode (:CompanionReview); false when none waits.
function M.review()
  return app():review()
end

-- add quotes lines line1..line2 (1-based, inclusive) of the current
-- buffer into the prompt, fenced and named, and opens the chat there
-- (:'<,'>CompanionAdd).
function M.add(line1, line2)
  local buf = vim.api.nvim_get_current_buf()
  local text = require('companion.quote').lines(buf, line1, line2)
  local a = app()
  a:view():add_input(text)
  a:open()
end

-- changes opens the list of the files the last turn changed, to keep or
-- revert them together or one by one (:CompanionChanges).
function M.changes()
  return app():changes()
end

-- new_session starts a fresh session in the chat.
function M.new_session()
  app():new_session()
end

-- trust runs `companion trust [--revoke] DIR` (DIR defaults to the working
-- directory) with the plugin's binary and environment, so the folder is
-- trusted where folderTrust is enabled; new sessions see it. It tells the
-- user the outcome and returns ok and the command's output.
function M.trust(dir, revoke)
  dir = (dir and dir ~= '') and vim.fn.fnamemodify(dir, ':p') or vim.fn.getcwd()
  local o = config.options
  local argv = { o.cmd, 'trust' }
  if revoke then
    table.insert(argv, '--revoke')
  end
  table.insert(argv, dir)
  local out = {}
  local collect = function(_, data)
    vim.list_extend(out, data or {})
  end
  local job_opts = { stdout_buffered = true, stderr_buffered = true, on_stdout = collect, on_stderr = collect }
  if o.env and next(o.env) then
    job_opts.env = o.env
  end
  local ok, job = pcall(vim.fn.jobstart, argv, job_opts)
  if not ok or job <= 0 then
    vim.notify('companion: cannot run ' .. o.cmd .. ' trust', vim.log.levels.ERROR)
    return false, ''
  end
  local code = vim.fn.jobwait({ job }, 10000)[1]
  local text = vim.trim(table.concat(out, '\n'))
  if code == 0 and not revoke and require('companion.trust').allow(dir) then
    -- Neovim's trust database denied the folder: it would keep telling the
    -- agent the opposite of what the user just chose.
    text = text .. ' (and removed its denial from Neovim\'s trust database)'
  end
  vim.notify('companion: ' .. text, code == 0 and vim.log.levels.INFO or vim.log.levels.ERROR)
  local a = require('companion.app').get()
  if a and a.tracker then
    a.tracker:flush() -- the agent hears the folder's trust now
  end
  return code == 0, text
end

-- attach adds an image file to the next prompt (:CompanionAttach).
function M.attach(path)
  return app():attach(path)
end

-- stop ends the agent process.
function M.stop()
  require('companion.app').reset()
end

return M
