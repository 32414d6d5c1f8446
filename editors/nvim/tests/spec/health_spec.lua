-- :checkhealth companion, the commands and the float layout.
local h = require('helpers')

-- health_report runs :checkhealth companion and returns the report text.
local function health_report()
  vim.cmd('checkhealth companion')
  return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
end

describe('health', function()
  after_each(h.reset)

  it('reports the binary, its version, the handshake and the scripted model', function()
    h.start('stream')
    local report = health_report()
    assert.matches('binary: ' .. h.bin(), report, 1, true)
    assert.matches('version: ', report, 1, true)
    assert.matches('protocol reached: ACP v1, companion', report, 1, true)
    assert.matches('no API key needed', report, 1, true)
    assert.is_nil(report:find('ERROR', 1, true), report)
  end)

  it('reports a missing binary and a missing key', function()
    require('companion').setup({ cmd = '/nonexistent/companion', args = { 'acp' },
      env = { GEMINI_API_KEY = '', GOOGLE_API_KEY = '', OPENAI_API_KEY = '', COMPANION_SCRIPT = '',
        XDG_CONFIG_HOME = vim.fn.tempname() } })
    local saved = { vim.env.GEMINI_API_KEY, vim.env.GOOGLE_API_KEY }
    vim.env.GEMINI_API_KEY, vim.env.GOOGLE_API_KEY = nil, nil
    local report = health_report()
    vim.env.GEMINI_API_KEY, vim.env.GOOGLE_API_KEY = saved[1], saved[2]
    assert.matches('companion binary not found', report, 1, true)
    assert.matches('no model key found', report, 1, true)
  end)
end)

describe('authentication', function()
  after_each(h.reset)

  it('says how to configure a key when the agent needs one', function()
    h.start('stream', { args = { 'acp' } })
    vim.cmd('Companion')
    h.wait(function() return h.transcript():find('Could not start a session', 1, true) end, 'the auth error')
    assert.matches('GEMINI_API_KEY', h.transcript(), 1, true)
    assert.is_nil(h.app().session)
  end)
end)

describe('a missing binary', function()
  after_each(h.reset)

  it('is reported in the chat', function()
    h.start('stream', { cmd = '/nonexistent/companion' })
    vim.cmd('Companion')
    h.wait(function() return h.transcript():find('Could not start companion', 1, true) end, 'the error')
    assert.matches('/nonexistent/companion', h.transcript(), 1, true)
    assert.is_nil(h.app().client)
  end)

  it('is reported once, in plain words, and the prompt stays in the input', function()
    h.start('stream', { cmd = '/nonexistent/companion' })
    vim.cmd('Companion')
    local app = h.app()
    vim.api.nvim_set_current_win(app.chat.input_win)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('Aplease keep me<C-s><Esc>', true, false, true), 'x', false)
    vim.wait(50)
    local text = h.transcript()
    local _, count = text:gsub('Could not start companion', '')
    assert.are.equal(1, count, text)
    assert.is_nil(text:find('Vim:E', 1, true), text)
    assert.matches('/nonexistent/companion is not an executable program', text, 1, true)
    assert.are.same({ 'please keep me' }, vim.api.nvim_buf_get_lines(app.chat.input, 0, -1, false))
    assert.is_nil(app.busy)
  end)
end)

describe('commands and layout', function()
  after_each(h.reset)

  it('defines the four commands', function()
    for _, name in ipairs({ 'Companion', 'CompanionToggle', 'CompanionCancel', 'CompanionSessions' }) do
      assert.are.equal(2, vim.fn.exists(':' .. name), name)
    end
  end)

  it('toggles a float layout', function()
    h.start('stream', { layout = 'float' })
    vim.cmd('CompanionToggle')
    local app = h.app()
    assert.is_true(app.chat:is_open())
    assert.are_not.equal('', vim.api.nvim_win_get_config(app.chat.win).relative)
    assert.are.equal(app.chat.input_win, vim.api.nvim_get_current_win())
    h.wait(function() return app.session ~= nil end, 'a session')
    local status
    if vim.fn.exists('+winbar') == 1 then
      status = vim.wo[app.chat.win].winbar
    else
      status = vim.api.nvim_buf_get_lines(app.chat.status_buf, 0, 1, false)[1]
    end
    assert.matches('mode: Default', status, 1, true)
    vim.cmd('CompanionToggle')
    assert.is_false(app.chat:is_open())
  end)

  it('sends the prompt with the submit key and cancels with the cancel key', function()
    h.start('hang')
    vim.cmd('Companion')
    local app = h.app()
    vim.api.nvim_buf_set_lines(app.chat.input, 0, -1, false, { 'Think forever' })
    local function press(keys)
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'x', false)
    end
    vim.cmd('stopinsert')
    press('<CR>')
    h.wait(function() return h.transcript():find('Starting to think', 1, true) end, 'the first chunk')
    assert.are.same({ '' }, vim.api.nvim_buf_get_lines(app.chat.input, 0, -1, false))
    press('<C-c>')
    h.wait_turn()
    assert.are.equal('cancelled', app.last_stop)
  end)
end)
