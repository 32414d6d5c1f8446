-- Turns the prompt text into ACP content blocks: the text itself, plus one
-- block per '@path' mention of an existing file: an embedded "resource"
-- with the file's text (from its buffer when loaded) when the agent
-- accepts embedded context, an "image" for an image file when the agent
-- takes images, else a "resource_link".
local fs = require('companion.fs')

local M = {}

-- uri makes a file:// URI of an absolute path (percent-encoding what must
-- be).
function M.uri(path)
  return 'file://' .. path:gsub('[^%w/%._~%-]', function(c)
    return ('%%%02X'):format(c:byte())
  end)
end

-- paths returns the absolute paths of the files mentioned in text, once
-- each, in order. '@"a b.txt"' allows spaces.
function M.paths(text, cwd)
  local seen, out = {}, {}
  local function add(p)
    p = p:gsub('[,.;:!?%)]+$', '')
    local abs = vim.fn.fnamemodify(p:sub(1, 1) == '/' and p or (cwd .. '/' .. p), ':p')
    if not seen[abs] and vim.fn.filereadable(abs) == 1 then
      seen[abs] = true
      out[#out + 1] = abs
    end
  end
  -- A leading space lets the frontier pattern match at the very start.
  text = ' ' .. text
  for quoted in text:gmatch('%f[%S]@"([^"]+)"') do
    add(quoted)
  end
  for word in text:gmatch('%f[%S]@([^%s"]+)') do
    add(word)
  end
  return out
end

-- read returns a file's text: the buffer's when it is loaded.
local function read(path)
  local buf = fs.find_buffer(path)
  if buf then
    return fs.buffer_text(buf)
  end
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local data = f:read('*a')
  f:close()
  return data
end

-- blocks returns the prompt's content blocks. An image file mentioned goes
-- as an image block when the agent takes images (images is true), never
-- as text.
function M.blocks(text, cwd, embedded, images)
  local attach = require('companion.attach')
  local out = { { type = 'text', text = text } }
  for _, path in ipairs(M.paths(text, cwd)) do
    local name = vim.fn.fnamemodify(path, ':t')
    local is_image = attach.mime_types[(vim.fn.fnamemodify(path, ':e') or ''):lower()] ~= nil
    local image = is_image and images and attach.image(path)
    local content = embedded and not is_image and read(path)
    if image then
      out[#out + 1] = image
    elseif content then
      out[#out + 1] = { type = 'resource', resource = { uri = M.uri(path), text = content, mimeType = 'text/plain' } }
    else
      out[#out + 1] = { type = 'resource_link', uri = M.uri(path), name = name }
    end
  end
  return out
end

return M
