"""companion.referee"""
