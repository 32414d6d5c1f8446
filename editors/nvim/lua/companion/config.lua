-- The plugin's settings: defaults, merged with what setup() receives.
local M = {}

-- defaults documents every option (README.md repeats them).
M.defaults = {
  -- cmd is the companion binary; args are its arguments (add
  -- '--script', FILE for a scripted model, '--log-file', FILE, ...).
  cmd = 'companion',
  args = { 'acp' },
  -- env adds environment variables for the agent (e.g. GEMINI_API_KEY).
  env = {},
  -- model, when set, is passed as --model.
  model = nil,
  -- approval_mode, when set, selects the session's mode config option
  -- ('default', 'auto_edit', 'yolo', 'plan') after a session starts.
  approval_mode = nil,
  -- permission_prompt: where a tool call's permission is asked. 'chat':
  -- a question in the chat answered with keys there (y, a, n, c, o),
  -- never taking the keyboard; 'select': vim.ui.select; 'auto': the chat
  -- unless a plugin replaced vim.ui.select.
  permission_prompt = 'auto',
  -- resume: the chat brings back the folder's last conversation when it
  -- starts (gn starts a new one); false starts a new one each time.
  resume = true,
  -- layout: 'split' (a column at the right) or 'float'.
  layout = 'split',
  split = { position = 'right', width = 80, input_height = 6 },
  float = { width = 0.8, height = 0.8, input_height = 6, border = 'rounded' },
  -- keymaps in the chat buffers; set one to false to leave it unmapped.
  keymaps = {
    submit_normal = '<CR>',
    submit_insert = '<C-s>',
    cancel = '<C-c>',
    close = 'q',
    mode = 'gm',
    model = 'gM',
    options = 'go',
    sessions = 'gs',
    new_session = 'gn',
    follow = 'gf',
    rewind = 'gR',
  },
  -- diff: review edits in a diff tab (else only the options are offered);
  -- accept (also :w on the proposed side) and reject are its keys.
  diff = { enabled = true, accept = 'ga', reject = 'gr' },
  -- context: send _companion/ide/contextUpdate after edits and moves.
  context = { enabled = true, debounce_ms = 300 },
  -- terminal: show an agent's terminal in a split when it starts.
  terminal = { open = false, height = 12 },
  -- trace: a file that gets every ACP message both ways (debugging), or a
  -- function(direction, line) with direction 'send' or 'recv'.
  trace = nil,
  -- tabline: readable tab labels for the chat and reviews ("companion chat",
  -- "review notes.txt") when 'tabline' is not set already.
  tabline = true,
}

-- options holds the merged settings of this Neovim.
M.options = vim.deepcopy(M.defaults)

-- setup merges user options over the defaults (lists are replaced).
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  if opts and opts.args then
    M.options.args = opts.args
  end
  return M.options
end

-- command returns the agent's argv.
function M.command()
  local o = M.options
  local cmd = { o.cmd }
  vim.list_extend(cmd, o.args or {})
  if o.model then
    vim.list_extend(cmd, { '--model', o.model })
  end
  return cmd
end

return M
