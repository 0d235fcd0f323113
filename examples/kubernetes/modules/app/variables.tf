variable "app" {
  description = "Application name; prefixes every object name."
  type        = string
}

variable "namespace" {
  description = "Kubernetes namespace of every object."
  type        = string
}

variable "environment" {
  description = "dev, staging or prod."
  type        = string
}

variable "image" {
  description = "Container image of every service. May be unknown at plan time."
  type        = string
}

variable "services" {
  description = "The services to run."
  type = list(object({
    name     = string
    port     = number
    replicas = optional(number, 1)
    public   = optional(bool, false)
    config   = optional(map(string), {})
  }))
}
