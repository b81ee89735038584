#!/bin/bash
greeting=hello
export greeting
