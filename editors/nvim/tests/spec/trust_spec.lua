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

  it("reports a folder Neovim's trust database denies as untrusted, and :CompanionTrust clears the denial", function()
    local secure, stdpath = vim.secure, vim.fn.stdpath
    local sent = {}
    local s = h.start('stream', { trace = function(dir, line)
      if dir == 'send' then sent[#sent + 1] = vim.json.decode(line) end
    end })
    -- Neovim 0.9+'s vim.secure, as far as the plugin uses it: its database
    -- file, and trust() removing an entry.
    local state = s.ws .. '/nvim-state'
    local db = state .. '/trust'
    local project = vim.loop.fs_realpath(s.project)
    h.write_file(db, 'abc123 /elsewhere/.nvim.lua\n! ' .. project .. '\n')
    local removed = {}
    vim.secure = { read = function() end, trust = function(o)
      removed[#removed + 1] = o
      assert.are.equal('remove', o.action)
      h.write_file(db, 'abc123 /elsewhere/.nvim.lua\n')
      return true
    end }
    vim.fn.stdpath = function(what)
      if what == 'state' then return state end
      return stdpath(what)
    end
    local ok, err = pcall(function()
      local function trusted()
        local last
        for _, m in ipairs(sent) do
          if m.method == '_companion/ide/contextUpdate' then last = m.params end
        end
        return last and last.isTrusted
      end
      require('companion').open('Say hello')
      h.wait_turn()
      assert.are.equal(false, trusted())
      -- The agent acts on it: it tells the user why the workspace is not trusted.
      assert.matches('the editor says this workspace is not trusted', h.transcript(), 1, true)
      local notes = {}
      vim.notify = function(msg) notes[#notes + 1] = msg end
      vim.cmd('CompanionTrust')
      assert.are.same({ { action = 'remove', path = project } }, removed)
      assert.matches("removed its denial from Neovim's trust database", notes[1], 1, true)
      assert.are.equal(true, trusted(), 'the agent hears the folder is trusted now')
    end)
    vim.secure, vim.fn.stdpath = secure, stdpath
    assert(ok, err)
  end)

  it('reports nothing where Neovim has no trust database', function()
    local secure = vim.secure
    vim.secure = nil
    local is_trusted = require('companion.trust').is_trusted(vim.fn.getcwd())
    vim.secure = secure
    assert.is_nil(is_trusted)
  end)
end)
