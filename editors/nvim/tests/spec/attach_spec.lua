-- :CompanionAttach: an image file goes with the next prompt as an ACP image
-- block, and reaches the model as inline data.
local h = require('helpers')
local attach = require('companion.attach')

describe(':CompanionAttach', function()
  after_each(h.reset)

  it('encodes base64 without vim.base64', function()
    for plain, want in pairs({ [''] = '', f = 'Zg==', fo = 'Zm8=', foo = 'Zm9v', foob = 'Zm9vYg==', ['\255\0\128'] = '/wCA' }) do
      assert.are.equal(want, attach.encode(plain))
    end
  end)

  it('sends an attached image with the next prompt, and the model gets it', function()
    local sent = {}
    local env = h.start('image', { trace = function(dir, line)
      if dir == 'send' then sent[#sent + 1] = vim.json.decode(line) end
    end })
    local png = '\137PNG\r\n\26\n\0\0\0\rIHDR' .. string.rep('\1\2\3', 10)
    h.write_file(env.project .. '/pic.png', png)
    h.write_file(env.project .. '/notes.txt', 'text')
    vim.cmd('Companion')
    h.wait(function() return h.app().session ~= nil end, 'a session')
    -- The user types the commands.
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(':CompanionAttach notes.txt<CR>:CompanionAttach pic.png<CR>', true, false, true), 'x', false)
    assert.matches('Not attached: .*notes.txt is not an image', h.transcript())
    assert.matches('Attached pic.png: it goes with your next prompt.', h.transcript(), 1, true)
    require('companion').open('What is this?')
    h.wait_turn()
    assert.matches('I see a picture.', h.transcript(), 1, true)
    assert.matches('## You\nWhat is this?\n[image: pic.png]', h.transcript(), 1, true)
    local prompt
    for _, m in ipairs(sent) do
      if m.method == 'session/prompt' then prompt = m.params.prompt end
    end
    assert.are.equal(2, #prompt)
    assert.are.same({ type = 'image', mimeType = 'image/png', data = attach.encode(png) }, prompt[2])
    -- Sent once: the next prompt goes without it.
    assert.is_nil(h.app().attachments)
  end)
end)
