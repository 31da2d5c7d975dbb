# The Ruby twin of Fixtures/cucumber-json's Swift steps (ShopSteps in Sources/StoryrunSteps):
# same patterns, same behaviour, for the differential test against Cucumber.
Given(/^the price list$/) do |table|
  @prices = Hash[table.hashes.map { |row| [row['item'], row['price'].to_i] }]
end

When(/^I buy (\d+) "([^"]*)"$/) do |count, item|
  @total = (@total || 0) + count.to_i * ((@prices || {})[item] || 1)
end

Then(/^I pay (\d+) euros$/) do |total|
  raise "expected #{total}, got #{@total}" unless @total == total.to_i
end

Then(/^the receipt reads$/) do |text|
end

Then(/^I leave the shop$/) do
end

Before('@failing-before') do
  raise 'the before hook was told to fail'
end

After('@failing-after') do
  raise 'the after hook was told to fail'
end

# A 1x1 red PNG, the same bytes the Swift twin attaches.
PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'

Then(/^the receipt is attached$/) do
  embed("{\"total\": #{@total}}", 'application/json')
  embed(PIXEL_PNG, 'image/png;base64') # Cucumber 2.4 reads a String without ;base64 as a file path first
end

Then(/^I log "([^"]*)"$/) do |text|
  puts text
end

After('@attach-after') do
  embed('receipt printed', 'text/plain')
end
