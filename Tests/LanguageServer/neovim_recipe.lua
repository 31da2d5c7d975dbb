-- Headless Neovim with the recipe of TheEditor.md as its init.lua (given as
-- $RECIPE, its executable path replaced by the test): opens a feature file,
-- waits for the server's diagnostics and writes them to $SMOKE_OUT.
local out = {}
dofile(os.getenv("RECIPE"))
vim.cmd("edit " .. os.getenv("SMOKE_FEATURE"))
local bufnr = vim.api.nvim_get_current_buf()
table.insert(out, "filetype " .. vim.bo[bufnr].filetype)
vim.wait(10000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  table.insert(out, "diagnostic " .. d.lnum .. " " .. d.message:gsub("\n.*", ""))
end
vim.fn.writefile(out, os.getenv("SMOKE_OUT"))
for _, client in pairs(vim.lsp.get_active_clients()) do client.stop() end
vim.cmd("qa!")
