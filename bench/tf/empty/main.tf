# Terraform's own fixed cost: a plan with no provider at all.
output "n" {
  value = 1
}
