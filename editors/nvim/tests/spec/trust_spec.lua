-- :CompanionTrust marks the folder trusted through `companion trust`.
local h = require('helpers')

describe(':CompanionTrust', function()
  local notify = vim.notify
  after_each(function()
    vim.notify = notify
    h.reset()
  end)

  it('trusts the working directory and revokes it with !', function()
    local s = h.start('stream')
    local store = s.ws .. '/home/.config/companion/trusted-folders.json'
    h.write_file(s.ws .. '/home/.config/companion/settings.json', '{"folderTrust":{"enabled":true}}')
    assert.are.equal(2, vim.fn.exists(':CompanionTrust'))
    local notes = {}
    vim.notify = function(msg) notes[#notes + 1] = msg end
    vim.cmd('CompanionTrust')
    local trusted = h.read_file(store)
    vim.cmd('CompanionTrust!')
    local revoked = h.read_file(store)
    local ok = require('companion').trust(s.ws .. '/missing')
    assert.matches(vim.fn.json_encode(s.project), trusted, 1, true)
    assert.is_nil(revoked:find(s.project, 1, true), revoked)
    assert.matches('trusted ' .. s.project, notes[1], 1, true)
    assert.matches('revoked trust in ' .. s.project, notes[2], 1, true)
    assert.is_false(ok)
  end)
end)
